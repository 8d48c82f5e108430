/**
 * Where actor data lives (pokemon-snap.md §2.4, §3.8, §3.9): the shared Pokémon overlays
 * (magikarp, pikachu, bulbasaur, zubat) with their Data/Code/Photo ROM ranges, which stages load
 * them, the common HD photo-model table range, the hard-coded common assets of §3.9 and the
 * per-archive search order that keeps overlapping RAM ranges apart (§2.4 rules 1–3).
 */
import { hex } from '../../binary'
import { AddressMap, type Chunk } from './address-map'
import type { StageInfo, StageName } from './stages'

export interface SharedArchive {
  name: 'magikarp' | 'pikachu' | 'bulbasaur' | 'zubat'
  data: { rom: number; ram: number; length: number }
  code: { rom: number; ram: number; length: number }
  photo: { rom: number; ram: number; length: number }
  stages: readonly StageName[] | 'all'
}

export const SHARED_ARCHIVES: readonly SharedArchive[] = [
  { name: 'magikarp', data: { rom: 0x731b0, ram: 0x800f5d90, length: 0xa200 }, code: { rom: 0x54b5d0, ram: 0x8034e130, length: 0x20d0 }, photo: { rom: 0x82f8e0, ram: 0x803b1f80, length: 0x3080 }, stages: 'all' },
  { name: 'pikachu', data: { rom: 0x7d3b0, ram: 0x800fff90, length: 0x1b0c0 }, code: { rom: 0x54d6a0, ram: 0x803476a0, length: 0x6a90 }, photo: { rom: 0x832960, ram: 0x803ad580, length: 0x4a00 }, stages: ['beach', 'tunnel', 'river', 'cave'] },
  { name: 'bulbasaur', data: { rom: 0x99f70, ram: 0x8011cb50, length: 0xd570 }, code: { rom: 0x557050, ram: 0x8033f6c0, length: 0x50c0 }, photo: { rom: 0x83a1e0, ram: 0x803a71b0, length: 0x3550 }, stages: ['river', 'cave'] },
  { name: 'zubat', data: { rom: 0x98470, ram: 0x8011b050, length: 0x1b00 }, code: { rom: 0x554130, ram: 0x80344780, length: 0x2f20 }, photo: { rom: 0x837360, ram: 0x803aa700, length: 0x2e80 }, stages: ['tunnel', 'cave'] },
]

/** The common archive's Photo range holding the HD photo-model table (§2.4). */
export const COMMON_PHOTO = { rom: 0x5959c, ram: 0x800adbec, length: 83 * 0x14 }

export function archivesOfStage(stage: StageName): SharedArchive[] {
  return SHARED_ARCHIVES.filter((a) => a.stages === 'all' || a.stages.includes(stage))
}

/** The chunks of one shared archive that lie inside the image (Photo only when asked). */
function archiveChunks(image: Uint8Array, a: SharedArchive, photo: boolean, warn: (m: string) => void): Chunk[] {
  const out: Chunk[] = []
  const add = (kind: Chunk['kind'], r: { rom: number; ram: number; length: number }) => {
    if (r.rom + r.length > image.length) return void warn(`${a.name} ${kind} range ${hex(r.rom)}..${hex(r.rom + r.length)} lies past the end of the image; not mapped`)
    out.push({ archive: a.name, kind, start: r.ram, bytes: image.subarray(r.rom, r.rom + r.length), romStart: r.rom })
  }
  if (photo) add('Photo', a.photo)
  add('Data', a.data)
  add('Code', a.code)
  return out
}

/** Address maps per archive for one stage (built once per stage). */
export class ActorMaps {
  /** Stage context: stage Data, Code, common, then the shared archives the stage loads (no Photo). */
  readonly stage: AddressMap
  private readonly cache = new Map<string, AddressMap>()
  readonly shared: SharedArchive[]
  readonly warnings: string[] = []

  constructor(readonly image: Uint8Array, readonly info: StageInfo, readonly stageMap: AddressMap) {
    this.shared = archivesOfStage(info.name)
    const own = stageMap.chunks.filter((c) => c.kind !== 'Photo')
    const sharedChunks = this.shared.flatMap((a) => archiveChunks(image, a, false, (m) => this.warnings.push(m)))
    this.stage = new AddressMap(stageMap.file, [...own, ...sharedChunks])
  }

  private commonPhoto(): Chunk[] {
    const p = COMMON_PHOTO
    if (p.rom + p.length > this.image.length) return []
    return [{ archive: 'common', kind: 'Photo', start: p.ram, bytes: this.image.subarray(p.rom, p.rom + p.length), romStart: p.rom }]
  }

  /**
   * The map for data of `archive` (a shared archive name or the stage's own name): that archive's
   * chunks first, then common, then the stage; with `photo`, its Photo range (and the common HD
   * table range) come first (§2.4 rule 3).
   */
  forArchive(archive: string, photo = false): AddressMap {
    const key = `${archive}:${photo}`
    const hit = this.cache.get(key)
    if (hit) return hit
    const stageOwn = this.stageMap.chunks.filter((c) => c.archive === this.info.name && (photo || c.kind !== 'Photo'))
    const common = this.stageMap.chunks.filter((c) => c.archive === 'common')
    const a = this.shared.find((s) => s.name === archive)
    let chunks: Chunk[]
    if (a) {
      const mine = archiveChunks(this.image, a, photo, () => {})
      chunks = [...mine, ...common, ...(photo ? this.commonPhoto() : []), ...stageOwn.filter((c) => c.kind !== 'Photo')]
    } else {
      const photoFirst = stageOwn.filter((c) => c.kind === 'Photo')
      chunks = [...photoFirst, ...stageOwn.filter((c) => c.kind !== 'Photo'), ...common, ...(photo ? this.commonPhoto() : [])]
      // models of the shared archives stay reachable from stage data (last)
      chunks.push(...this.shared.flatMap((s) => archiveChunks(this.image, s, false, () => {})))
    }
    const m = new AddressMap(this.stageMap.file, chunks)
    this.cache.set(key, m)
    return m
  }

  /** The archive a code address belongs to: the stage when its own chunks hold it, else a loaded shared archive's Code range. */
  archiveOfCode(addr: number): string {
    const own = this.stageMap.chunks.find((c) => c.archive === this.info.name && addr >= c.start && addr < c.start + c.bytes.length)
    if (own) return this.info.name
    const s = this.shared.find((x) => addr >= x.code.ram && addr < x.code.ram + x.code.length)
    return s ? s.name : this.info.name
  }
}

/** A hard-coded common asset (§3.9). */
export interface CommonAsset {
  /** Actor id used in listings (0 = Zero-One; the others get ids from 1000 up as noclip's objects do not name them). */
  id: number
  name: string
  graph: number
  materials: number
  renderFunc: number
  /** Node-track array and material-track table (0 = none). */
  nodeTracks: number
  materialTracks: number
  fps: number
}

/** Per-stage Zero-One intro animation (A = node tracks, B = material tracks), §3.9. */
const CART_ANIM: Partial<Record<StageName, [number, number]>> = {
  beach: [0x8013c580, 0x8013cea0], tunnel: [0x8013d920, 0x8013e3d0], volcano: [0x801174e0, 0x801182f0],
  river: [0x8014a660, 0x8014b450], cave: [0x80147540, 0x80148420], valley: [0x80120520, 0x801212a0], rainbow: [0x80119ae0, 0x8011a970],
}

/** The common assets of §3.9 for a stage. */
export function commonAssets(stage: StageName): CommonAsset[] {
  const [a, b] = CART_ANIM[stage] ?? [0, 0]
  return [
    { id: 0, name: 'zero-one', graph: 0x803aaa30, materials: 0x8039d938, renderFunc: 0x800a16b0, nodeTracks: a, materialTracks: b, fps: 15 },
    { id: -1, name: 'apple', graph: 0x800eaed0, materials: 0x800eac58, renderFunc: 0x800a15d8, nodeTracks: 0, materialTracks: 0x800eaf60, fps: 12 },
    { id: -2, name: 'pester ball', graph: 0x800e9138, materials: 0x800e8eb8, renderFunc: 0x800a15d8, nodeTracks: 0, materialTracks: 0x800e91c0, fps: 12 },
    { id: -3, name: 'water splash', graph: 0x800eb430, materials: 0x800eb510, renderFunc: 0x800a1608, nodeTracks: 0x800eafb0, materialTracks: 0x800eb0c0, fps: 27 },
    { id: -4, name: 'lava splash', graph: 0x800edab0, materials: 0x800edb90, renderFunc: 0x800a1608, nodeTracks: 0x800ed5b0, materialTracks: 0x800ed6b0, fps: 27 },
  ]
}
