/**
 * Pokémon Stadium ROM → models: identification, archive, unwrap, module, root struct, geo layouts,
 * skeleton, animations, display lists, battle labels (pokemon-stadium.md §2–§15, checklist §21).
 */
import { FormatError, hex } from '../../binary'
import { openRom, type N64Identity, type N64Rom } from '../n64/rom'
import { stadiumRomId } from './rom-id'
import { readModelArchive, type ModelArchive } from './archive'
import { unwrapFile, type UnwrapResult } from './pers-szp'
import { DEFAULT_LINK_BASE, Module, findRootOffset, readFragmentHeader, readRootStruct, type FragmentHeader, type RootStruct } from './fragment'
import { parseGeoLayout, type GeoLayout } from './geo-layout'
import { buildModelGraph, type ModelGraph } from './model-graph'
import { readModelTables, type ModelTables } from './model-header'
import { checkSkeletalAnimation, readSkeletalAnimation, type SkeletalAnimation } from './skeletal-anim'
import { readTextureAnimation, type TextureAnimation } from './texture-anim'
import { orderDifferences, runDisplayLists, type DlRun, type RunOptions } from './display-lists'
import { labelAnimations, readBattleTable, BATTLE_POINTER_COUNT, type BattleTable, type Labelling } from './battle-table'
import { modelDisplayName, modelSlug } from './names'

export interface StadiumRom {
  file: string
  rom: N64Rom
  archive: ModelArchive
  /** True when the MD5 is the US 1.0 image; other Stadium images use the US layout unverified. */
  verified: boolean
  warnings: string[]
}

/**
 * Identifies the ROM (byte order, MD5, header name) and reads the model archive. `games`: the other
 * N64 games the caller knows (their identities), so that an image one of them claims is refused.
 */
export function openStadiumRom(bytes: Uint8Array, file = 'ROM', md5?: string, games: readonly N64Identity[] = []): StadiumRom {
  const rom = openRom(bytes, file, md5, [stadiumRomId, ...games])
  const other = rom.game !== stadiumRomId.game ? games.find((g) => g.game === rom.game) : undefined
  if (other) {
    throw new FormatError(`not a Pokémon Stadium ROM: this is ${other.title} (header name ${JSON.stringify(rom.header.name)}, MD5 ${rom.md5})`, { file, structure: 'N64Header', offset: 0x20 })
  }
  const warnings: string[] = []
  if (!rom.verified) warnings.push(`MD5 ${rom.md5} is not the US 1.0 image; opened with the US layout (unverified)`)
  let archive: ModelArchive
  if (rom.game === 'stadium') {
    archive = readModelArchive(rom.image, file)
  } else {
    // §2 identifies the game by MD5 only and says to warn but still load on a mismatch, so an
    // image whose header does not name Pokémon Stadium (a hack, a synthetic image) is accepted
    // when it has the model archive at 0x920000; otherwise it is reported as another game.
    try {
      archive = readModelArchive(rom.image, file)
    } catch (e) {
      const detail = e instanceof FormatError ? e.detail : (e as Error).message
      throw new FormatError(`not a Pokémon Stadium ROM (header name ${JSON.stringify(rom.header.name)}, MD5 ${rom.md5}): ${detail}`, { file, structure: e instanceof FormatError ? e.structure : 'N64Header', offset: e instanceof FormatError ? e.offset : 0x20 })
    }
    warnings.push(`the header name ${JSON.stringify(rom.header.name)} is not Pokémon Stadium's; opened with the US layout because the model archive is at 0x920000`)
  }
  warnings.push(...archive.warnings)
  return { file, rom, archive, verified: rom.verified, warnings }
}

export interface LoadOptions extends RunOptions {
  /** Run the display lists (skip for listing). Default true. */
  geometry?: boolean
  /** Also run traversal order to count triangles that differ (§8.2 diagnostic). Default true. */
  orderDiagnostic?: boolean
}

export interface StadiumModel {
  file: number
  name: string
  slug: string
  species: number
  container: UnwrapResult
  module: Module
  header: FragmentHeader
  root: RootStruct
  layouts: GeoLayout[]
  graph: ModelGraph
  tables: ModelTables
  animations: SkeletalAnimation[]
  textureAnimations: TextureAnimation[]
  battle: BattleTable | null
  labels: Labelling
  dl: DlRun | null
  /** Triangles that differ between bucket order and traversal order. */
  orderDifferences: number
  warnings: string[]
}

/** Label for errors in file `i` of the archive. */
export function modelFileLabel(romFile: string, i: number): string {
  return `${romFile} [model file ${i}]`
}

/** Battle-table entry used for file `i` (§3.4, §15.5 rule 5): species files, 151 Substitute, 152 Surfing Pikachu. */
export function battleEntryForFile(i: number): number {
  return i < BATTLE_POINTER_COUNT ? i : -1
}

export function loadModel(sr: StadiumRom, i: number, opts: LoadOptions = {}): StadiumModel {
  const e = sr.archive.entries[i]
  if (!e) throw new FormatError(`model file ${i} does not exist (the archive has ${sr.archive.entries.length})`, { file: sr.file, structure: 'BinArchive' })
  const label = modelFileLabel(sr.file, i)
  const src = sr.rom.image.subarray(e.romOffset, e.romOffset + e.size)
  const container = unwrapFile(src, { file: sr.file, base: e.romOffset })
  const warnings = [...container.warnings]
  const probe = new Module(container.bytes, sr.archive.linkBase, label)
  const header = readFragmentHeader(probe.r)
  let dataEnd = container.bytes.length
  if (header.relocOffset >= 0x20 && header.relocOffset <= container.bytes.length) dataEnd = header.relocOffset
  else warnings.push(`relocation offset ${hex(header.relocOffset)} is outside the module; reading the whole module as data`)
  const mod = new Module(container.bytes, sr.archive.linkBase, label, dataEnd)
  if (mod.base !== DEFAULT_LINK_BASE) warnings.push(`module link base ${hex(mod.base)} (archive id ${hex(sr.archive.id)})`)
  const root = readRootStruct(mod, findRootOffset(mod, header))
  warnings.push(...root.warnings)
  const layouts = root.geoLayouts.map((o) => parseGeoLayout(mod, o))
  const graph = buildModelGraph(layouts, label)
  warnings.push(...graph.warnings)
  const tables = readModelTables(mod, graph.header)
  const animations = root.animations.map((o, k) => readSkeletalAnimation(mod, o, k))
  for (const a of animations) checkSkeletalAnimation(mod, a, graph.bones)
  const textureAnimations = root.textureAnimations.map((o, k) => readTextureAnimation(mod, o, k))
  if (i < 151 && root.species !== i + 1) warnings.push(`root species ${root.species}, expected ${i + 1} for file ${i}`)
  const be = battleEntryForFile(i)
  let battle: BattleTable | null = null
  try {
    battle = be >= 0 ? readBattleTable(sr.rom.image, be, sr.file) : null
  } catch (err) {
    // Battle tables only label animations: an image with another layout still exports its models.
    warnings.push(`battle table ${be}: ${(err as Error).message}; animations left unlabelled`)
  }
  const labels = labelAnimations(battle, animations.length, textureAnimations.length)
  warnings.push(...labels.warnings)
  let dl: DlRun | null = null
  let diff = 0
  if (opts.geometry !== false) {
    dl = runDisplayLists(mod, graph, tables, opts)
    warnings.push(...dl.warnings)
    if (opts.orderDiagnostic !== false && !opts.pipelineParity && new Set(graph.draws.map((d) => d.bucket)).size > 1) {
      diff = orderDifferences(dl, runDisplayLists(mod, graph, tables, { traversalOrder: true }))
      if (diff) warnings.push(`${diff} triangle(s) differ between the game's bucket order and traversal order`)
    }
  }
  return { file: i, name: modelDisplayName(i), slug: modelSlug(i), species: root.species, container, module: mod, header, root, layouts, graph, tables, animations, textureAnimations, battle, labels, dl, orderDifferences: diff, warnings }
}
