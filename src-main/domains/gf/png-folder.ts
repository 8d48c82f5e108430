/**
 * A folder of PNGs for a batch replace: the PNG files in it and one level of sub-folders (the
 * `gf extract` layout `<file>/<entry>_<name>.png`), each with its size read from the IHDR chunk
 * only (the pictures are decoded later, when queued or repacked).
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { Reader } from '../../../src-shared/binary/reader'
import { matchPngs, type PngMatchFile, type PngMatchReport } from '../../../src-shared/formats/gf/png-names'
import { listTextures, type GfSet } from '../../../src-shared/formats/gf/gf-set'

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** A folder with more PNGs than this is not a texture folder (stops a scan of a whole drive). */
const MAX_PNGS = 4096

/** Width and height of a PNG from its first 24 bytes (signature, IHDR length/type, width, height; PNG spec §11.2.2). */
export function pngSize(head: Uint8Array, file: string): { width: number; height: number } {
  const r = new Reader(head, { endian: 'big', file, structure: 'PNG header' })
  SIGNATURE.forEach((b, i) => {
    if (r.u8At(i, 'signature') !== b) throw r.error('not a PNG (bad signature)', i)
  })
  r.seek(12)
  const type = String.fromCharCode(...r.bytesN(4, 'first chunk type'))
  if (type !== 'IHDR') throw r.error(`first chunk is ${JSON.stringify(type)}, not IHDR`, 12)
  const width = r.u32('IHDR.width')
  const height = r.u32('IHDR.height')
  if (!width || !height) throw r.error(`size ${width}×${height}`, 16)
  return { width, height }
}

async function head(file: string): Promise<Uint8Array> {
  const fh = await fsp.open(file, 'r')
  try {
    const buf = new Uint8Array(24)
    const { bytesRead } = await fh.read(buf, 0, 24, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

export interface PngFolder {
  pngs: PngMatchFile[]
  /** PNG files whose header cannot be read, with the reason. */
  unreadable: { png: string; error: string }[]
}

/** Lists the PNGs of `dir` and of its direct sub-folders (relative paths with `/`). */
export async function scanPngFolder(dir: string): Promise<PngFolder> {
  const top = await fsp.readdir(dir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    throw new Error(`${dir}: cannot list the folder (${e.code ?? e.message})`)
  })
  const rels: string[] = []
  for (const d of top) {
    if (d.isFile() && /\.png$/i.test(d.name)) rels.push(d.name)
    else if (d.isDirectory()) {
      const sub = await fsp.readdir(path.join(dir, d.name), { withFileTypes: true }).catch(() => [])
      for (const s of sub) if (s.isFile() && /\.png$/i.test(s.name)) rels.push(`${d.name}/${s.name}`)
    }
    if (rels.length > MAX_PNGS) throw new Error(`${dir}: more than ${MAX_PNGS} PNGs; choose the folder of one set's textures`)
  }
  const out: PngFolder = { pngs: [], unreadable: [] }
  for (const rel of rels.sort()) {
    const abs = path.join(dir, ...rel.split('/'))
    try {
      out.pngs.push({ rel, ...pngSize(await head(abs), abs) })
    } catch (e) {
      out.unreadable.push({ png: rel, error: (e as Error).message })
    }
  }
  return out
}

export type SetFolderMatch = PngMatchReport & { unreadable: PngFolder['unreadable'] }

/** Scans `dir` and matches its PNGs to the textures of `set` by name (png-names.ts). */
export async function matchSetFolder(set: GfSet, dir: string): Promise<SetFolderMatch> {
  const { pngs, unreadable } = await scanPngFolder(dir)
  const textures = listTextures(set).map((t) => ({ file: t.file, entry: t.entry, name: t.header.name, width: t.header.width, height: t.header.height }))
  return { ...matchPngs(textures, pngs), unreadable }
}
