/**
 * Node-side repack and extraction of a GF set: everything is built and verified in memory, then
 * written with writeDirAtomic into a new folder; its verify callback re-reads the written files,
 * re-parses them and compares every untouched entry with the original before the rename. Input
 * files are only read.
 */
import { existsSync, promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { createHash } from 'node:crypto'
import { writeDirAtomic } from '../../node/atomic'
import { guardOutput, type OutputConsent } from '../../node/output-guard'
import { parsePackage } from '../../../src-shared/formats/gf/package'
import { verifyRepack } from '../../../src-shared/formats/gf/repack'
import { findTexture, listTextures, type GfSet } from '../../../src-shared/formats/gf/gf-set'
import { isEtc } from '../../../src-shared/formats/pica/texture-format'
import { encodePicaWithMipsParallel } from './etc1-pool'
import { repackSet, type ReplacementReport, type SetRepackResult, type TextureReplacement } from '../../../src-shared/formats/gf/replace'
import { decodeGfTexture } from '../../../src-shared/formats/gf/texture'
import type { EncodeOptions } from '../../../src-shared/formats/pica/texture-codec'
import { encodePng } from './png'
import { pngRelPath } from './set-folder'

export interface Progress {
  (done: number, total: number, detail?: string): void
}

export interface RepackFolderResult {
  out: string
  files: { file: string; changed: boolean; size: number; sha256: string }[]
  replaced: ReplacementReport[]
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Writes a complete repacked set to `outDir` (a new folder). */
export async function repackSetToFolder(set: GfSet & SetSource, outDir: string, replacements: TextureReplacement[], opts: EncodeOptions & { progress?: Progress; signal?: AbortSignal; consent?: OutputConsent } = {}): Promise<RepackFolderResult> {
  const guard = () => guardOutput({ out: outDir, kind: 'folder', inputs: [...setInputs(set), ...pngFiles(replacements)], ...opts.consent })
  guard()
  const total = set.files.length * 2 + 1
  const result = await repackSetInMemory(set, replacements, opts)
  opts.progress?.(1, total, 'writing')
  let step = 1
  const originals = new Map(set.files.map((f) => [f.file, f]))
  await writeDirAtomic(
    outDir,
    (function* () {
      for (const [name, bytes] of result.files) {
        opts.signal?.throwIfAborted()
        opts.progress?.(++step, total, name)
        yield [name, bytes] as [string, Uint8Array]
      }
    })(),
    async (tmp) => {
      for (const [name, expected] of result.files) {
        opts.signal?.throwIfAborted()
        const f = originals.get(name)!
        const b = await fsp.readFile(path.join(tmp, name))
        const written = new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
        verifyRepack(f.bytes, f.pkg, written, result.changes.get(name) ?? new Map(), name)
        if (sha256(written) !== sha256(expected)) throw new Error(`${name}: the file on disk differs from the bytes written`)
        parsePackage(written, { file: name })
        opts.progress?.(++step, total, `verified ${name}`)
      }
      guard() // a folder may have appeared meanwhile
    },
    { replace: opts.consent?.force === true },
  )
  return {
    out: outDir,
    // `changed`: the written bytes differ from the input file (a re-import of an exported PNG of
    // a lossless format gives back identical bytes).
    files: [...result.files].map(([file, bytes]) => {
      const h = sha256(bytes)
      return { file, changed: h !== sha256(originals.get(file)!.bytes), size: bytes.byteLength, sha256: h }
    }),
    replaced: result.report,
  }
}

/** Where a set was read from: its folder (or `ARCHIVE#N`) and the files read. */
type SetSource = { dir?: string; inputs?: string[] }

/** A set's inputs for the output rule: its folder and the files it was read from (a GARC archive). */
function setInputs(set: SetSource): (string | undefined)[] {
  return [set.dir, ...(set.inputs ?? [])]
}

/** The PNG files the replacements were read from (an app's dropped PNG names no file). */
function pngFiles(replacements: TextureReplacement[]): string[] {
  return replacements.map((r) => r.source).filter((s): s is string => typeof s === 'string' && existsSync(s))
}

/** The repacked set in memory: ETC1/ETC1A4 levels encoded on the worker pool, the rest by repackSet. */
export async function repackSetInMemory(set: GfSet, replacements: TextureReplacement[], opts: EncodeOptions & { progress?: Progress; signal?: AbortSignal } = {}): Promise<SetRepackResult> {
  opts.progress?.(0, set.files.length * 2 + 1, 'encoding')
  const result = repackSet(set, await encodeEtcOnPool(set, replacements, opts), opts)
  opts.signal?.throwIfAborted()
  return result
}

/**
 * The ETC1/ETC1A4 replacements with their levels encoded on the worker pool (all cores; progress
 * as "encoding FILE entry N: P %"); the others as given (repackSet encodes them, and reports a
 * wrong size).
 */
async function encodeEtcOnPool(set: GfSet, replacements: TextureReplacement[], opts: EncodeOptions & { progress?: Progress; signal?: AbortSignal }): Promise<TextureReplacement[]> {
  const out: TextureReplacement[] = []
  const total = set.files.length * 2 + 1
  for (const rep of replacements) {
    const h = findTexture(set, rep.file, rep.entry).header
    if (rep.reformat || rep.pixels || !isEtc(h.format) || rep.width !== h.width || rep.height !== h.height || rep.rgba.byteLength !== h.width * h.height * 4) {
      out.push(rep)
      continue
    }
    const progress = (d: number, t: number) => opts.progress?.(0, total, `encoding ${rep.file} entry ${rep.entry}: ${Math.floor((100 * d) / t)} %`)
    out.push({ ...rep, pixels: await encodePicaWithMipsParallel(rep.rgba, h.width, h.height, h.format, h.levels, { ...opts, onProgress: progress }) })
  }
  return out
}

export interface ExtractResult {
  out: string
  textures: { file: string; entry: number; name: string; path: string }[]
}

/**
 * Writes every texture of the set as PNG (top row first) to `DIR/<file>/<entry>_<name>.png`, as
 * one folder written aside and renamed in (all or nothing). An existing DIR that holds anything
 * is replaced only with consent (`--force`); DIR may never be or lie inside the set folder.
 */
export async function extractSetPngs(set: GfSet & SetSource, outDir: string, opts: { progress?: Progress; signal?: AbortSignal; consent?: OutputConsent } = {}): Promise<ExtractResult> {
  const guard = () => guardOutput({ out: outDir, kind: 'folder', inputs: setInputs(set), ...opts.consent })
  guard()
  const list = listTextures(set)
  const textures: ExtractResult['textures'] = []
  const files = function* () {
    let i = 0
    for (const t of list) {
      opts.signal?.throwIfAborted()
      const rgba = decodeGfTexture(t.bytes, t.header)
      const rel = pngRelPath(t.file, t.entry, t.header.name)
      textures.push({ file: t.file, entry: t.entry, name: t.header.name, path: rel })
      opts.progress?.(++i, list.length, rel)
      yield [rel, encodePng(rgba, t.header.width, t.header.height)] as [string, Uint8Array]
    }
  }
  await writeDirAtomic(outDir, files(), async () => guard(), { replace: opts.consent?.force === true })
  return { out: outDir, textures }
}
