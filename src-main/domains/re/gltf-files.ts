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
import { motionFileScene, importAnimation, templateSkeleton, importOutputName, type ImportOptions, type ImportResult, type MotionFileScene, type MotBone } from '../../../src-shared/formats/re'
import { importInto } from '../../../src-shared/formats/re/gltf-into'
import { buildModZip, checkGamePath, checkModFile, type ModInfo } from '../../../src-shared/formats/re/fluffy-mod'
import { loadMotionFile, readBytes, type LoadedMotionFile } from './files'
import { loadSkeletonSource, motionSceneWithSkeletonFile } from './skeleton-files'
import { writeFileAtomic, writeNewFileAtomic } from '../../node/atomic'
import { guardOutput, type OutputConsent } from '../../node/output-guard'

export { inFile }

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

export interface ExportSkeletonOptions {
  /** `--skeleton SKEL`: a `.mesh.*` or a mot/motlist with bone headers (spec §15.10). */
  skeleton?: string
  /** `--no-mesh`: leave a SKEL mesh's geometry out. */
  noMesh?: boolean
}

/** motlist/mot → .glb at `out` (spec §10.9); `motion` picks one motion index. */
export async function exportMotionGlb(file: string, out: string, motion?: number, opts: ExportSkeletonOptions = {}, consent: OutputConsent = {}): Promise<ExportResult> {
  const inputs = [file, opts.skeleton]
  guardOutput({ out, inputs, ...consent })
  const { loaded, built } = await motionSceneWithSkeletonFile(file, opts.skeleton, motion, opts.noMesh)
  const glb = await exportGlb(built.scene, { generator: 'Modbench re export' })
  await prepareOut(out)
  guardOutput({ out, inputs, ...consent }) // a file may have appeared meanwhile
  await writeFileAtomic(out, glb)
  return { path: out, bytes: glb.byteLength, built, warnings: [...loaded.warnings, ...built.warnings] }
}

/** A .glb or .gltf with its external buffers (URIs relative to the .gltf's folder). */
export async function loadGltf(file: string): Promise<GltfAnimations> {
  const bytes = await readBytes(file)
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
    for (const uri of uris) external[uri] = await readBytes(path.resolve(path.dirname(file), decodeURIComponent(uri)))
  }
  return readGltfAnimations(bytes, { file, external })
}

export interface ImportRequest extends ImportOptions {
  /** The template (`--template`), or with `into` the original whose mots the animations replace (`--into`). */
  template: string
  into?: boolean
  gltf: string
  out: string
  /** Picks the animations from the glTF's names before the import (the CLI refuses an unclear choice there). */
  choose?: (names: string[]) => ImportOptions['animations']
  /** `--skeleton SKEL` for a target without bone headers. */
  skeletonFile?: string
}

export interface ImportFileResult extends Omit<ImportResult, 'bytes'> {
  path: string
  size: number
}

/** glTF + template (or ORIGINAL with `into`) → the motlist/mot bytes (nothing written); `animations` names the glTF's. */
export async function buildGltfImport(req: Omit<ImportRequest, 'out'>): Promise<{ result: ImportResult; animations: string[]; skeleton: MotBone[] }> {
  const t = await loadMotionFile(req.template)
  const skeleton = req.skeletonFile === undefined ? req.skeleton : (await loadSkeletonSource(req.skeletonFile)).bones
  const bones = inFile(req.template, () => templateSkeleton(t.file, skeleton))
  const g = await loadGltf(req.gltf)
  const animations = req.choose ? req.choose(g.animations.map((a) => a.name)) : req.animations
  const result = inFile(req.gltf, () => (req.into ? importInto(t.file, t.bytes, g, { animations, tolerance: req.tolerance, file: req.template, skeleton }) : importAnimation(t.file, g, { ...req, animations, skeleton })))
  result.warnings.unshift(...t.warnings, ...g.warnings)
  return { result, animations: g.animations.map((a) => a.name), skeleton: bones }
}

/** Writes a built import at `out` with the template's suffix (inputs protected). */
export async function writeGltfImport(r: ImportResult, req: Pick<ImportRequest, 'template' | 'gltf' | 'out' | 'skeletonFile'>, consent: OutputConsent = {}): Promise<ImportFileResult> {
  const outPath = importOutputName(req.out, r.kind, r.version)
  guardOutput({ out: outPath, inputs: [req.template, req.gltf, req.skeletonFile], ...consent })
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
  /** A PNG file, or its bytes (`screenshotPng`, the app's view). */
  screenshot?: string
  screenshotPng?: Uint8Array
  out: string
}

/** FILE (+ screenshot) → a Fluffy mod zip at a new path `out`; FILE checked against its name and the game path first. */
export async function packMod(req: PackModRequest, consent: OutputConsent = {}): Promise<{ path: string; size: number; entries: string[]; gamePath: string }> {
  const inputs = [req.file, req.screenshot]
  guardOutput({ out: req.out, inputs, ...consent })
  const data = await readBytes(req.file)
  checkModFile(req.file, path.basename(req.file), checkGamePath(req.gamePath, path.basename(req.file)), data)
  const screenshot = req.screenshot ? await readBytes(req.screenshot) : req.screenshotPng
  let zip
  try {
    zip = buildModZip({ ...req, fileName: path.basename(req.file), data, screenshot })
  } catch (e) {
    if (screenshot && /screenshot/.test((e as Error).message)) throw new FormatError((e as Error).message, { file: req.screenshot ?? 'the view capture', structure: 'PNG signature', offset: 0 })
    throw e
  }
  await prepareOut(req.out)
  guardOutput({ out: req.out, inputs, ...consent })
  // without consent, a file that appears meanwhile is still never replaced (link, not rename)
  if (consent.force) await writeFileAtomic(req.out, zip.bytes)
  else await writeNewFileAtomic(req.out, zip.bytes)
  return { path: req.out, size: zip.bytes.byteLength, entries: zip.entries, gamePath: zip.gamePath }
}
