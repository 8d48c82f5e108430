/**
 * Node-side RE motion helpers shared by the CLI and the services: reading motion and pose files
 * with file-named errors, and writing pose motlists atomically (template never modified).
 */
import { promises as fsp } from 'node:fs'
import { readGameFile, type GameFileLimits } from '../../node/game-file'
import * as path from 'node:path'
import { inFile } from '../../../src-shared/binary'
import {
  readMotionFile,
  fileVersion,
  versionFromName,
  parseEmvPoses,
  pickPose,
  buildPoseMotlistFromEmv,
  buildPoseMotlist,
  poseOutputName,
  motlistBaseName,
  type MotionFile,
  type EmvPose,
  type EulerOrder,
  type PoseBones,
  type PoseMotlistOptions,
  type PoseMotlistResult,
} from '../../../src-shared/formats/re'
import { writeFileAtomic } from '../../node/atomic'
import { guardOutput, type OutputConsent } from '../../node/output-guard'

export interface LoadedMotionFile {
  path: string
  bytes: Uint8Array
  file: MotionFile
  warnings: string[]
}

/** An RE motlist or mesh is a few MiB; 256 MiB is a guard, refused before reading. Never inflated (`gzip: 'name'`: no RE file is named `.gz`). */
export const RE_FILE_LIMITS: GameFileLimits = { maxBytes: 256 * 1024 * 1024, noun: 'an RE Engine file', note: 'a few MiB', gzip: 'name' }

/** A file's bytes through the guarded reader; a missing file or a folder is a FormatError naming the path. */
export function readBytes(p: string): Promise<Uint8Array> {
  return readGameFile(p, RE_FILE_LIMITS)
}

/** Reads a `.motlist.*` / `.mot.*` (by magic); warns when the name's suffix disagrees with the header. */
export async function loadMotionFile(p: string): Promise<LoadedMotionFile> {
  const bytes = await readBytes(p)
  const file = readMotionFile(bytes, p)
  const warnings: string[] = file.kind === 'motlist' ? [...file.motlist.warnings] : []
  const suffix = versionFromName(path.basename(p))
  if (suffix && (suffix.kind !== file.kind || suffix.version !== fileVersion(file))) {
    warnings.push(`${p}: the name says ${suffix.kind} ${suffix.version}, the header says ${file.kind} ${fileVersion(file)}; the header is used`)
  }
  return { path: p, bytes, file, warnings }
}

export async function loadPoseFile(p: string): Promise<EmvPose[]> {
  const bytes = await readBytes(p)
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  return parseEmvPoses(text, p)
}

export interface SavePoseRequest {
  /** Whether the user agreed to replace an existing output, and how messages name it (default: not agreed, `--out`). */
  consent?: OutputConsent
  templatePath: string
  out: string
  /** Either an EMV pose (converted with `order`) or ready local rotations. */
  emv?: EmvPose
  bones?: PoseBones
  order?: EulerOrder
  options?: PoseMotlistOptions
  /** Further paths the output must not overwrite (e.g. the pose file). */
  protect?: string[]
}

export interface SavePoseResult extends Omit<PoseMotlistResult, 'bytes'> {
  path: string
  size: number
  warnings: string[]
}

/**
 * Builds the pose motlist from the template and writes it atomically to `out` with the
 * template's version suffix. Refuses to overwrite the template or the pose file.
 */
export async function savePoseMotlist(req: SavePoseRequest): Promise<SavePoseResult> {
  const t = await loadMotionFile(req.templatePath)
  const opts: PoseMotlistOptions = { ...req.options }
  const version = t.file.kind === 'motlist' ? t.file.motlist.version : undefined
  const outPath = poseOutputName(req.out, version ?? 0)
  const motlistName = opts.motlistName ?? motlistBaseName(outPath)
  const { emv, bones } = req
  // the builders' errors (a template without a skeleton, …) name the template
  let result: PoseMotlistResult
  if (emv) result = inFile(req.templatePath, () => buildPoseMotlistFromEmv(t.file, emv, { ...opts, order: req.order, motlistName }))
  else if (bones) result = inFile(req.templatePath, () => buildPoseMotlist(t.file, bones, { ...opts, motlistName }))
  else throw new Error('savePoseMotlist: no pose given')
  const finalPath = poseOutputName(req.out, result.version)
  // the version suffix may name another file than the one the caller checked
  guardOutput({ out: finalPath, inputs: [req.templatePath, ...(req.protect ?? [])], ...req.consent })
  await fsp.mkdir(path.dirname(path.resolve(finalPath)), { recursive: true })
  await writeFileAtomic(finalPath, result.bytes)
  const { bytes, ...rest } = result
  return { ...rest, path: finalPath, size: bytes.byteLength, warnings: t.warnings }
}

export { pickPose }
