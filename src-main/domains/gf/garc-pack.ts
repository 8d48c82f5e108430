/**
 * Writing a new GARC (CLI.md `gf garc pack`, `gf replace GARC#N`; spec §19.4): with nothing
 * replaced the input is copied byte for byte; otherwise the tables are rebuilt from the stored
 * lengths and every untouched entry's stored bytes are streamed from the input, each followed by
 * 0xFF padding. The output is written beside its target, checked (tables re-read, every replaced
 * entry compared) and renamed into place; the input is only read.
 */
import * as fs from 'node:fs'
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { FormatError } from '../../../src-shared/binary/errors'
import { GARC_SET_SIZE } from '../../../src-shared/formats/gf/garc'
import { buildGarcTables, garcPadding, storeLike } from '../../../src-shared/formats/gf/garc-write'
import { GF_SET_FILES } from '../../../src-shared/formats/gf/gf-set'
import { LZ11_TYPE, decodeLz11, isLz11 } from '../../../src-shared/formats/gf/lz11'
import { parsePackage } from '../../../src-shared/formats/gf/package'
import { injectedFault, outputWriteFault, tempSibling } from '../../node/atomic'
import { romfsRelative } from '../../../src-shared/formats/gf/romfs-path'
import { GarcFile } from './garc-file'
import { GF_SET_FILE_LIMITS } from './set-folder'
import { readGameFile } from '../../node/game-file'

const equal = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.compare(a, b) === 0

/**
 * The stored bytes of set `n`'s entries whose content changes to `files` (`0.bin` → bytes): an
 * unchanged file keeps its stored bytes; a changed one is LZ11-compressed again when the original
 * entry was (CLI.md). A file absent from `files` keeps its entry.
 */
export async function setChanges(g: GarcFile, n: number, files: ReadonlyMap<string, Uint8Array>): Promise<Map<number, Uint8Array>> {
  g.checkSet(n)
  const changes = new Map<number, Uint8Array>()
  for (let k = 0; k < GARC_SET_SIZE; k++) {
    const content = files.get(GF_SET_FILES[k]!)
    if (!content) continue
    const index = n * GARC_SET_SIZE + k
    const stored = await g.stored(index)
    const compressed = stored[0] === LZ11_TYPE && isLz11(stored)
    const before = compressed ? decodeLz11(stored).bytes : stored
    if (!equal(before, content)) changes.set(index, compressed ? storeLike(stored, content) : content)
  }
  return changes
}

/** SETDIR's `0.bin` … `8.bin` (each a package, or empty); missing files are listed, not fatal. */
export async function readSetDirFiles(dir: string): Promise<{ files: Map<string, Uint8Array>; missing: string[] }> {
  const st = await fsp.stat(dir).catch(() => null)
  if (!st?.isDirectory()) throw new Error(`${dir}: not a folder (--set N=SETDIR takes a folder holding 0.bin … 8.bin)`)
  const names = await fsp.readdir(dir)
  const files = new Map<string, Uint8Array>()
  const missing: string[] = []
  for (const want of GF_SET_FILES) {
    const found = names.find((x) => x.toLowerCase() === want)
    if (!found) {
      missing.push(want)
      continue
    }
    const p = path.join(dir, found)
    const bytes = await readGameFile(p, GF_SET_FILE_LIMITS)
    if (bytes.byteLength) parsePackage(bytes, { file: p })
    files.set(want, bytes)
  }
  if (files.size === 0) throw new Error(`${dir} holds none of the set files 0.bin … 8.bin`)
  return { files, missing }
}

/** `DIR/luma/titles/TITLE/romfs/<path>` (spec §19.8): `<path>` below the nearest `romfs` folder, else the file name. */
export function layeredFsTarget(archive: string, dir: string, title: string): string {
  const rel = romfsRelative(path.resolve(archive))?.split('/') ?? [path.basename(archive)]
  return path.join(dir, 'luma', 'titles', title.toUpperCase(), 'romfs', ...rel)
}

export interface WriteOptions {
  signal?: AbortSignal
  progress?: (done: number, total: number, detail?: string) => void
}

/** Writes the archive with `changes` (index → stored bytes) to `out` atomically (replacing what is there). */
export async function writeGarcFile(g: GarcFile, changes: ReadonlyMap<number, Uint8Array>, out: string, opts: WriteOptions = {}): Promise<void> {
  const abs = path.resolve(out)
  await fsp.mkdir(path.dirname(abs), { recursive: true })
  const tmp = tempSibling(abs)
  try {
    // synchronous writes, as the reads are: thousands of pieces, no thread-pool round trip each
    const fd = fs.openSync(tmp, 'wx')
    try {
      injectedFault()
      if (changes.size === 0) await copyAll(g, fd, opts)
      else await writeRebuilt(g, changes, fd, opts)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    await verifyWritten(g, changes, tmp, out)
    await fsp.rename(tmp, abs)
  } catch (e) {
    await fsp.rm(tmp, { force: true })
    throw outputWriteFault(out, e) // a full disk / read-only folder names the output, not the temp
  }
}

const CHUNK = 4 * 1024 * 1024

async function copyAll(g: GarcFile, fd: number, opts: WriteOptions): Promise<void> {
  const size = g.tables.fileSize
  for (let pos = 0; pos < size; pos += CHUNK) {
    opts.signal?.throwIfAborted()
    opts.progress?.(pos, size, 'copying')
    const b = await g.read(pos, Math.min(CHUNK, size - pos))
    if (b.byteLength === 0) throw new Error(`${g.file}: the file shrank while being copied`)
    writeAll(fd, b, pos)
  }
}

/** Tables, then each entry (stored bytes from the input or its replacement) and its 0xFF padding; input read in big runs. */
async function writeRebuilt(g: GarcFile, changes: ReadonlyMap<number, Uint8Array>, fd: number, opts: WriteOptions): Promise<void> {
  const t = g.tables
  const layout = buildGarcTables(t.version, t.alignment, t.entries.map((e) => changes.get(e.index)?.byteLength ?? e.length))
  const w = new BufferedWriter(fd)
  w.write(layout.tables)
  let window: { start: number; bytes: Uint8Array } = { start: 0, bytes: new Uint8Array(0) }
  for (const e of t.entries) {
    if (e.index % 256 === 0) {
      opts.signal?.throwIfAborted()
      opts.progress?.(e.index, t.entries.length, `entry ${e.index}`)
    }
    let bytes = changes.get(e.index)
    if (!bytes) {
      if (e.offset < window.start || e.offset + e.length > window.start + window.bytes.byteLength) {
        window = { start: e.offset, bytes: await g.read(e.offset, Math.min(Math.max(CHUNK, e.length), t.fileSize - e.offset)) }
        if (window.bytes.byteLength < e.length) throw new FormatError('the file shrank while being read', { file: g.file, structure: `GARC entry ${e.index}`, offset: e.offset })
      }
      bytes = window.bytes.subarray(e.offset - window.start, e.offset - window.start + e.length)
    }
    w.write(bytes)
    w.write(garcPadding(bytes.byteLength, t.alignment))
  }
  w.flush()
  if (w.written !== layout.fileSize) throw new Error(`internal: wrote ${w.written} bytes, the tables say ${layout.fileSize}`)
}

/** Writes all of `b` at `pos`. */
function writeAll(fd: number, b: Uint8Array, pos: number): void {
  for (let off = 0; off < b.byteLength; ) {
    const n = fs.writeSync(fd, b, off, b.byteLength - off, pos + off)
    if (n <= 0) throw new Error(`a write of ${b.byteLength - off} bytes wrote nothing`)
    off += n
  }
}

/** Gathers small pieces into 1 MiB writes. */
class BufferedWriter {
  private buf = new Uint8Array(1024 * 1024)
  private used = 0
  written = 0
  constructor(private readonly fd: number) {}
  write(b: Uint8Array): void {
    if (this.used + b.byteLength > this.buf.byteLength) this.flush()
    if (b.byteLength > this.buf.byteLength) return this.raw(b)
    this.buf.set(b, this.used)
    this.used += b.byteLength
  }
  flush(): void {
    if (this.used) this.raw(this.buf.subarray(0, this.used))
    this.used = 0
  }
  private raw(b: Uint8Array): void {
    writeAll(this.fd, b, this.written)
    this.written += b.byteLength
  }
}

/** The written archive's tables parse, its size and entry count are right, and each replaced entry holds its bytes. */
async function verifyWritten(g: GarcFile, changes: ReadonlyMap<number, Uint8Array>, tmp: string, out: string): Promise<void> {
  await GarcFile.with(tmp, async (w) => {
    const fail = (d: string) => new Error(`${out}: the written archive failed its check: ${d}`)
    if (w.tables.entries.length !== g.tables.entries.length) throw fail(`${w.tables.entries.length} entries, the input has ${g.tables.entries.length}`)
    if (w.tables.version !== g.tables.version || w.tables.alignment !== g.tables.alignment) throw fail('version or alignment changed')
    for (const [i, want] of changes) if (!equal(await w.stored(i), want)) throw fail(`entry ${i} does not hold its new bytes`)
    if (changes.size === 0 && w.tables.fileSize !== g.tables.fileSize) throw fail('the copy differs in size')
  })
}
