/**
 * Node side of the RE glTF round trip and the Fluffy mod (shared by the CLI and the services):
 * motlist/mot → .glb, glTF (+ external buffers) + template → motlist/mot, file + mod info → zip.
 * Every output is written atomically; inputs are never overwritten; the mod zip never replaces an
 * existing file. Errors raised by the pure readers get the file they concern.
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { FormatError, inFile } from '../../../src-shared/binary'
import { exportGlb } from '../../../src-shared/export/gltf'
import { readGltfAnimations, type GltfAnimations } from '../../../src-shared/export/gltf-read'
import { motionFileScene, importAnimation, templateSkeleton, importOutputName, type ImportOptions, type ImportResult, type MotionFileScene } from '../../../src-shared/formats/re'
import { buildModZip, type ModInfo } from '../../../src-shared/formats/re/fluffy-mod'
import { loadMotionFile, type LoadedMotionFile } from './files'
import { writeFileAtomic, writeNewFileAtomic } from '../../node/atomic'
import { guardOutput, type OutputConsent } from '../../node/output-guard'

export { inFile }

async function readInput(p: string): Promise<Uint8Array> {
  try {
    const b = await fsp.readFile(p)
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new FormatError(code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a folder, not a file' : (e as Error).message, { file: p })
  }
}

/** Creates the parent folders of `out`; fails when `out` is a folder. */
async function prepareOut(out: string): Promise<void> {
  const st = await fsp.stat(out).catch(() => null)
  if (st?.isDirectory()) throw new Error(`${out} is a folder; give a file name`)
  await fsp.mkdir(path.dirname(path.resolve(out)), { recursive: true })
}

export interface ExportResult {
  path: string
  bytes: number
  built: MotionFileScene
  warnings: string[]
}

/** The scene of a motion file (skeleton + motions), with file-named errors. */
export async function motionScene(file: string, motion?: number | 'none'): Promise<{ loaded: LoadedMotionFile; built: MotionFileScene }> {
  const loaded = await loadMotionFile(file)
  const built = inFile(file, () => motionFileScene(loaded.file, { motion }))
  return { loaded, built }
}

/** motlist/mot → .glb at `out` (spec §10.9); `motion` picks one motion index. */
export async function exportMotionGlb(file: string, out: string, motion?: number, consent: OutputConsent = {}): Promise<ExportResult> {
  guardOutput({ out, inputs: [file], ...consent })
  const { loaded, built } = await motionScene(file, motion)
  const glb = await exportGlb(built.scene, { generator: 'Modbench re export' })
  await prepareOut(out)
  guardOutput({ out, inputs: [file], ...consent }) // a file may have appeared meanwhile
  await writeFileAtomic(out, glb)
  return { path: out, bytes: glb.byteLength, built, warnings: [...loaded.warnings, ...built.warnings] }
}

/** A .glb or .gltf with its external buffers (URIs relative to the .gltf's folder). */
export async function loadGltf(file: string): Promise<GltfAnimations> {
  const bytes = await readInput(file)
  const external: Record<string, Uint8Array> = {}
  const isJson = !(bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46)
  if (isJson) {
    let uris: string[] = []
    try {
      const j = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: unknown }[] }
      uris = (j.buffers ?? []).map((b) => b.uri).filter((u): u is string => typeof u === 'string' && !u.startsWith('data:'))
    } catch {
      // readGltfAnimations reports the bad JSON
    }
    for (const uri of uris) external[uri] = await readInput(path.resolve(path.dirname(file), decodeURIComponent(uri)))
  }
  return readGltfAnimations(bytes, { file, external })
}

export interface ImportRequest extends ImportOptions {
  template: string
  gltf: string
  out: string
}

export interface ImportFileResult extends Omit<ImportResult, 'bytes'> {
  path: string
  size: number
}

/** glTF + template → the motlist/mot bytes (nothing written); `animations` names the glTF's. */
export async function buildGltfImport(req: Omit<ImportRequest, 'out'>): Promise<{ result: ImportResult; animations: string[] }> {
  const t = await loadMotionFile(req.template)
  inFile(req.template, () => templateSkeleton(t.file))
  const g = await loadGltf(req.gltf)
  const result = inFile(req.gltf, () => importAnimation(t.file, g, req))
  result.warnings.unshift(...t.warnings, ...g.warnings)
  return { result, animations: g.animations.map((a) => a.name) }
}

/** Writes a built import at `out` with the template's suffix (inputs protected). */
export async function writeGltfImport(r: ImportResult, req: Pick<ImportRequest, 'template' | 'gltf' | 'out'>, consent: OutputConsent = {}): Promise<ImportFileResult> {
  const outPath = importOutputName(req.out, r.kind, r.version)
  guardOutput({ out: outPath, inputs: [req.template, req.gltf], ...consent })
  await prepareOut(outPath)
  await writeFileAtomic(outPath, r.bytes)
  const { bytes, ...rest } = r
  return { ...rest, path: outPath, size: bytes.byteLength }
}

/** glTF + template → motlist/mot at `out` with the template's suffix. */
export async function importGltfMotion(req: ImportRequest, consent: OutputConsent = {}): Promise<ImportFileResult> {
  return writeGltfImport((await buildGltfImport(req)).result, req, consent)
}

export interface PackModRequest extends ModInfo {
  file: string
  gamePath: string
  screenshot?: string
  out: string
}

/** FILE (+ screenshot) → a Fluffy mod zip at a new path `out`. */
export async function packMod(req: PackModRequest, consent: OutputConsent = {}): Promise<{ path: string; size: number; entries: string[]; gamePath: string }> {
  const inputs = [req.file, req.screenshot]
  guardOutput({ out: req.out, inputs, ...consent })
  const data = await readInput(req.file)
  const screenshot = req.screenshot ? await readInput(req.screenshot) : undefined
  let zip
  try {
    zip = buildModZip({ ...req, fileName: path.basename(req.file), data, screenshot })
  } catch (e) {
    if (screenshot && /screenshot/.test((e as Error).message)) throw new FormatError((e as Error).message, { file: req.screenshot, structure: 'PNG signature', offset: 0 })
    throw e
  }
  await prepareOut(req.out)
  guardOutput({ out: req.out, inputs, ...consent })
  // without consent, a file that appears meanwhile is still never replaced (link, not rename)
  if (consent.force) await writeFileAtomic(req.out, zip.bytes)
  else await writeNewFileAtomic(req.out, zip.bytes)
  return { path: req.out, size: zip.bytes.byteLength, entries: zip.entries, gamePath: zip.gamePath }
}
