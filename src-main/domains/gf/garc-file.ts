/**
 * A GARC on disk, read in pieces (spec §19): the tables first (a few reads at the start of the
 * file), then only the entries asked for. One set of a 10 000-entry archive costs its nine
 * entries, a set's name one small read (the package header and the first texture header).
 */
import { openGameFileRange, type GameFileLimits, type GameFileRange } from '../../node/game-file'
import { FormatError } from '../../../src-shared/binary/errors'
import { GARC_SET_SIZE, garcSets, garcTablesExtent, parseGarcTables, type GarcTables } from '../../../src-shared/formats/gf/garc'
import { firstModelTextureName, firstTextureName, garcSetMember, garcSetName, type NameProbe } from '../../../src-shared/formats/gf/garc-set'
import { GF_SET_FILES } from '../../../src-shared/formats/gf/gf-set'
import { LZ11_TYPE, decodeLz11, isLz11 } from '../../../src-shared/formats/gf/lz11'

/** The first read: the v6 header and the FATO header, and usually the whole tables of a small archive. */
const FIRST_READ = 64 * 1024
/** A name probe reads this much of an entry first. */
const PROBE_READ = 1024

/** Where an archive's bytes come from: a file on disk, or bytes in memory. */
export interface GarcIo {
  size: number
  read(pos: number, length: number): Promise<Uint8Array>
  close(): Promise<void>
}

/** An archive's size fits the u32 the tables give it (spec §19): a larger file is refused before reading. */
export const GARC_FILE_LIMITS: GameFileLimits = { maxBytes: 0xffffffff, noun: 'a GARC archive', gzip: 'name' }

/**
 * Reads are synchronous under the promise (the guarded ranged reader's `read`): an archive is
 * read in many small pieces (a name probe per set), and a thread-pool round trip per piece would
 * cost more than the read itself.
 */
function fileIo(range: GameFileRange): GarcIo {
  return {
    size: range.size,
    read: async (pos, length) => range.read(pos, length),
    close: async () => range.close(),
  }
}

function bytesIo(bytes: Uint8Array): GarcIo {
  return { size: bytes.byteLength, read: async (pos, length) => bytes.subarray(pos, Math.min(bytes.byteLength, pos + length)), close: async () => {} }
}

export class GarcFile {
  private constructor(
    /** The path as the user gave it (messages). */
    readonly file: string,
    private readonly io: GarcIo,
    readonly tables: GarcTables,
    /** The bytes the tables were read from (header … FIMB). */
    readonly tableBytes: Uint8Array,
  ) {}

  /** Opens an archive and reads its tables; FormatError (file, structure, offset) when they are bad. */
  static async open(file: string): Promise<GarcFile> {
    let range: GameFileRange
    try {
      range = openGameFileRange(file, GARC_FILE_LIMITS)
    } catch (e) {
      if (e instanceof FormatError && !e.structure && /^is (a folder|not a file)/.test(e.detail)) throw new Error(`${file} is not a file (a GARC archive is one file, e.g. romfs a/0/9/4)`)
      throw e
    }
    return GarcFile.fromIo(file, fileIo(range))
  }

  /** An archive held in memory (a `.gz` sample unpacked by the indexer). */
  static fromBytes(file: string, bytes: Uint8Array): Promise<GarcFile> {
    return GarcFile.fromIo(file, bytesIo(bytes))
  }

  private static async fromIo(file: string, io: GarcIo): Promise<GarcFile> {
    try {
      const size = io.size
      let prefix = await io.read(0, Math.min(size, FIRST_READ))
      for (let k = 0; k < 4; k++) {
        const need = Math.min(size, garcTablesExtent(prefix))
        if (need <= prefix.byteLength) break
        prefix = await io.read(0, need)
      }
      const tables = parseGarcTables(prefix, size, { file })
      return new GarcFile(file, io, tables, prefix.subarray(0, Math.min(prefix.byteLength, tables.dataOffset)))
    } catch (e) {
      await io.close()
      throw e
    }
  }

  /** Opens, runs `f`, closes. */
  static async with<T>(file: string, f: (g: GarcFile) => Promise<T>): Promise<T> {
    const g = await GarcFile.open(file)
    try {
      return await f(g)
    } finally {
      await g.close()
    }
  }

  close(): Promise<void> {
    return this.io.close()
  }

  get setCount(): number {
    return garcSets(this.tables).length
  }

  /** The stored bytes of entry `i` (or their first `max` bytes). */
  stored(i: number, max = Infinity): Promise<Uint8Array> {
    const e = this.tables.entries[i]!
    return this.io.read(e.offset, Math.min(e.length, max))
  }

  /** Reads `length` bytes at an absolute offset of the archive. */
  read(offset: number, length: number): Promise<Uint8Array> {
    return this.io.read(offset, length)
  }

  /** An entry as extracted (§19.6): decompressed when it is a compressed entry (§19.5), else as stored. */
  async content(i: number): Promise<{ bytes: Uint8Array; compressed: boolean }> {
    const stored = await this.stored(i)
    if (stored[0] === LZ11_TYPE && isLz11(stored)) return { bytes: decodeLz11(stored).bytes, compressed: true }
    return { bytes: stored, compressed: false }
  }

  /** Throws unless set `n` exists. */
  checkSet(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n >= this.setCount) {
      const sets = this.setCount
      throw new Error(`${this.file} has no set ${n}: it holds ${sets === 0 ? 'no sets' : `sets 0–${sets - 1}`} (${this.tables.entries.length} entries)`)
    }
  }

  /**
   * Set `n` as the files `0.bin` … `8.bin` (decompressed, checked to be `PC` packages); empty entries
   * are listed as missing.
   */
  async readSet(n: number): Promise<{ files: Map<string, Uint8Array>; missing: string[] }> {
    this.checkSet(n)
    const files = new Map<string, Uint8Array>()
    const missing: string[] = []
    for (let k = 0; k < GARC_SET_SIZE; k++) {
      const e = this.tables.entries[n * GARC_SET_SIZE + k]!
      const bytes = garcSetMember(await this.stored(e.index), e, n, this.file)
      if (bytes) files.set(GF_SET_FILES[k]!, bytes)
      else missing.push(GF_SET_FILES[k]!)
    }
    return { files, missing }
  }

  /** Set `n` for a command that reads it: as readSet, but a set whose nine entries are all empty is an error naming `label` (`GARC#N`). */
  async readSetStrict(n: number, label: string): Promise<{ files: Map<string, Uint8Array>; missing: string[] }> {
    const set = await this.readSet(n)
    if (set.files.size === 0) throw new Error(`${label}: every entry of set ${n} is empty`)
    return set
  }

  /** Whether each entry is stored compressed (reads every entry that starts with 0x11: the whole entry, once). */
  async compressedFlags(): Promise<boolean[]> {
    const out: boolean[] = []
    for (const e of this.tables.entries) {
      if (e.length < 4 || (await this.read(e.offset, 1))[0] !== LZ11_TYPE) out.push(false)
      else out.push(isLz11(await this.stored(e.index)))
    }
    return out
  }

  /** The texture name a set is named by (§19.6), or null; an unreadable set gives null. */
  async setTextureName(n: number): Promise<string | null> {
    try {
      const tex = await this.probe(n * GARC_SET_SIZE + 1, firstTextureName)
      if (tex) return tex
      return await this.probe(n * GARC_SET_SIZE, firstModelTextureName)
    } catch (e) {
      if (e instanceof FormatError) return null
      throw e
    }
  }

  /** The set's name (§19.6): species and form, `pmSSSS_FF`, else `set N`. */
  async setName(n: number): Promise<string> {
    return garcSetName(await this.setTextureName(n), n)
  }

  /** Runs a name probe on entry `i`, reading (and decompressing) only as much as it asks for. */
  private async probe(i: number, probe: (prefix: Uint8Array) => NameProbe): Promise<string | null> {
    const e = this.tables.entries[i]
    if (!e || e.length === 0) return null
    let want = PROBE_READ
    for (let round = 0; round < 8; round++) {
      const stored = await this.stored(i, want)
      const whole = stored.byteLength === e.length
      // a compressed member: decode the prefix (3 stored bytes can give at most 0x10110 bytes; this bounds the work)
      const prefix = stored[0] === LZ11_TYPE ? decodeLz11(stored, { file: this.file }, whole ? undefined : want).bytes : stored
      const r = probe(prefix)
      if ('name' in r) return r.name
      if ('none' in r || whole) return null
      want = Math.max(want * 4, r.need + 0x100)
    }
    return null
  }
}
