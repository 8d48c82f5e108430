/**
 * Node side of the Stadium domain: read a ROM file, identify it (MD5 through node:crypto), list
 * and export its models (glb + manifest.json + moves.json, written atomically).
 */
import { createHash } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { FormatError } from '../../../src-shared/binary'
import { N64_FILE_LIMITS, readN64File, unpackN64Bytes } from '../n64/rom-file'
import { assertGameFileSize } from '../../node/game-file'
import { openStadiumSparse } from './rom-sparse'
import { normaliseRom } from '../../../src-shared/formats/n64/rom'
import { openStadiumRom, loadModel, type StadiumRom, type LoadOptions } from '../../../src-shared/formats/stadium/model'
import { n64Identities } from '../../plugin/registry'
import { buildStadiumScene, type StadiumSceneOptions } from '../../../src-shared/formats/stadium/scene'
import { manifestText, movesText, summarizeModel, type FailedModel, type ModelSummary } from '../../../src-shared/formats/stadium/manifest'
import { exportGlb, texturePng } from '../../../src-shared/export/gltf'
import { writeDirAtomic, type FileContent } from '../../node/atomic'
import { guardOutput, type OutputConsent } from '../../node/output-guard'

export const GENERATOR = 'Modbench 0.1.0 (stadium)'

/**
 * Opens ROM bytes (gzip-wrapped samples are inflated under the ISIZE guard), hashing with
 * node:crypto. Messages name the file as given (the CLI prints paths as the user typed them).
 */
export function openStadiumBytes(raw: Uint8Array, file: string): StadiumRom {
  const label = file
  const bytes = unpackN64Bytes(raw, label)
  let md5: string | undefined
  try {
    md5 = createHash('md5').update(normaliseRom(bytes, label).image).digest('hex')
  } catch {
    md5 = undefined // openStadiumRom reports the byte-order problem
  }
  return openStadiumRom(bytes, label, md5, n64Identities())
}

/**
 * A Stadium ROM file, errors naming it as given. A plain ROM file is read sparsely (only the
 * ranges the readers use, `openStadiumSparse`); a gzip-wrapped sample or anything that path does
 * not take is read whole, size and gzip guarded by `readGameFile`.
 */
export async function readStadiumRom(file: string): Promise<StadiumRom> {
  const st = await fsp.stat(file).catch(() => null)
  if (st?.isFile()) {
    assertGameFileSize(file, st.size, N64_FILE_LIMITS)
    let sr: StadiumRom | null
    try {
      sr = await openStadiumSparse(file, st.size)
    } catch (e) {
      if (e instanceof FormatError) throw e
      throw new FormatError(`cannot read the file: ${(e as Error).message}`, { file })
    }
    if (sr) return sr
  }
  return openStadiumBytes(await readN64File(file), file)
}

export interface ListRow {
  file: number
  species: number
  name: string
  slug: string
  bones: number
  animations: number
  textureAnimations: number
  /** Set when this model cannot be read (its counts are then 0): one bad model does not hide the rest. */
  error?: string
}

/** The message of a model that failed, rethrowing a cancel (which is no model's fault). */
function modelError(e: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) throw e
  return e instanceof Error ? e.message : String(e)
}

export function listModels(sr: StadiumRom, signal?: AbortSignal): ListRow[] {
  const rows: ListRow[] = []
  for (let i = 0; i < sr.archive.entries.length; i++) {
    signal?.throwIfAborted()
    try {
      const m = loadModel(sr, i, { geometry: false })
      rows.push({ file: i, species: m.file < 151 ? i + 1 : m.species, name: m.name, slug: m.slug, bones: m.graph.bones.length, animations: m.animations.length, textureAnimations: m.textureAnimations.length })
    } catch (e) {
      rows.push({ file: i, species: i < 151 ? i + 1 : 0, name: `file ${i} (unreadable)`, slug: '', bones: 0, animations: 0, textureAnimations: 0, error: modelError(e, signal) })
    }
  }
  return rows
}

export interface ExportOptions extends LoadOptions, StadiumSceneOptions {
  signal?: AbortSignal
  onProgress?(done: number, total: number, detail: string): void
  /** Also write textures/<slug>/<nn>_<w>x<h>.png. Default true. */
  textures?: boolean
  /** Only these file indices. */
  only?: number[]
  /** Check each glb with the Khronos validator; errors fail the export. */
  validate?: (glb: Uint8Array, name: string) => Promise<void>
  /** Whether an existing output folder may be replaced, and how messages name it (default: not, `--out`). */
  consent?: OutputConsent
}

export interface ExportResult {
  models: number
  files: string[]
  summaries: ModelSummary[]
  /** Models that could not be exported, with why (also in manifest.json's `failed`). */
  failed: FailedModel[]
}

/**
 * Exports every model of the ROM into a new folder `outDir`, written atomically. A model that
 * cannot be read or built is left out and listed in `failed` (and manifest.json) with its error:
 * one bad model does not cost the others. When every model fails, nothing is written and the first
 * error is thrown.
 */
export async function exportStadium(sr: StadiumRom, outDir: string, opts: ExportOptions = {}): Promise<ExportResult> {
  const guard = () => guardOutput({ out: outDir, kind: 'folder', inputs: [sr.file], ...opts.consent })
  guard()
  const indices = opts.only ?? sr.archive.entries.map((e) => e.index)
  for (const i of indices) if (!sr.archive.entries[i]) throw new FormatError(`model file ${i} does not exist (the archive has ${sr.archive.entries.length})`, { file: sr.file, structure: 'BinArchive' })
  const summaries: ModelSummary[] = []
  const written: string[] = []
  const failed: FailedModel[] = []
  let firstError: unknown = null
  async function* files(): AsyncGenerator<[string, FileContent]> {
    let done = 0
    for (const i of indices) {
      opts.signal?.throwIfAborted()
      let built: Awaited<ReturnType<typeof buildModel>>
      try {
        built = await buildModel(sr, i, opts)
      } catch (e) {
        failed.push({ file: i, sourceFile: `${i}.bin`, error: modelError(e, opts.signal) })
        firstError ??= e
        opts.onProgress?.(++done, indices.length, `file ${i} failed`)
        continue
      }
      const { m, scene, pngs, glb } = built
      const s = summarizeModel(m, scene)
      summaries.push(s)
      written.push(s.glb)
      yield [s.glb, glb]
      if (opts.textures !== false) {
        for (const [k, t] of scene.textures.entries()) {
          // §10.2/§16.3: <slot>_<w>x<h>.png, slot = the exported image's index (the glb's image index)
          const rel = `${s.textureDir}/${String(k).padStart(2, '0')}_${t.width}x${t.height}.png`
          written.push(rel)
          yield [rel, pngs[k]!]
        }
      }
      done++
      opts.onProgress?.(done, indices.length, m.slug)
    }
    if (summaries.length === 0 && firstError) throw firstError
    // the written manifest names the ROM by its base name (no local folders inside an export)
    const info = { source: path.basename(sr.file), romMd5: sr.rom.md5, verified: sr.verified, generator: GENERATOR }
    written.push('manifest.json', 'moves.json')
    // streamed, a model entry / a move at a time: manifest.json and moves.json (1.2 + 4 MiB for
    // 215 models) each built as one object graph and one string were ~22 MiB of the peak RSS
    yield ['manifest.json', manifestText(info, summaries, failed)]
    yield ['moves.json', movesText(info, summaries)]
  }
  await writeDirAtomic(outDir, files(), async () => guard(), { replace: opts.consent?.force === true })
  return { models: summaries.length, files: written, summaries, failed }
}

/** One model read, built and encoded (its glb and its textures' PNGs), or the error that stopped it. */
async function buildModel(sr: StadiumRom, i: number, opts: ExportOptions) {
  const m = loadModel(sr, i, opts)
  const scene = buildStadiumScene(m, opts)
  // each texture is PNG-encoded once, for the glb and for its PNG file
  const pngs = scene.textures.map(texturePng)
  const glb = await exportGlb(scene, { generator: GENERATOR, texturePngs: pngs })
  if (opts.validate) await opts.validate(glb, `${m.slug}.glb`)
  return { m, scene, pngs, glb }
}

/** The §20 histograms over every model of a ROM (what to check first on a real image). */
export function diagnose(sr: StadiumRom, signal?: AbortSignal): Record<string, unknown> {
  const inc = (h: Record<string, number>, k: string | number) => (h[String(k)] = (h[String(k)] ?? 0) + 1)
  const rawFlags: Record<string, number> = {}
  const patchCounts: Record<string, number> = {}
  const tails: Record<string, number> = {}
  const opcodes: Record<string, number> = {}
  const layers: Record<string, number> = {}
  const geoLayoutCounts: Record<string, number> = {}
  const models: Record<string, unknown>[] = []
  let orderDiff = 0
  let cross = 0
  for (const e of sr.archive.entries) {
    signal?.throwIfAborted()
    try {
      const m = loadModel(sr, e.index)
      for (const b of m.graph.bones) inc(rawFlags, `0x${b.rawFlags.toString(16)}`)
      inc(patchCounts, m.container.patches.length)
      inc(tails, (m.container.totalSize ?? 0) - (m.container.dataSize ?? 0))
      inc(geoLayoutCounts, m.root.geoLayoutCount)
      for (const l of m.layouts) for (const [k, n] of Object.entries(l.opcodes)) opcodes[k] = (opcodes[k] ?? 0) + n
      for (const l of m.dl?.layers ?? []) inc(layers, l)
      orderDiff += m.orderDifferences
      cross += m.dl?.crossBucketTriangles ?? 0
      models.push({ file: e.index, slug: m.slug, species: m.species, bones: m.graph.bones.length, layers: m.dl?.layers ?? [], orderDifferences: m.orderDifferences, crossBucketTriangles: m.dl?.crossBucketTriangles ?? 0, warnings: m.warnings.length })
    } catch (err) {
      models.push({ file: e.index, error: (err as Error).message })
    }
  }
  return {
    source: sr.file, romMd5: sr.rom.md5, verified: sr.verified, archiveId: sr.archive.id, linkBase: sr.archive.linkBase, files: sr.archive.entries.length,
    rawFlags, patchCounts, tailSizes: tails, geoLayoutCounts, geoOpcodes: opcodes, renderLayers: layers, orderDifferences: orderDiff, crossBucketTriangles: cross, models,
  }
}
