import { promises as fsp, existsSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import * as path from 'node:path'
import { randomBytes } from 'node:crypto'

/** A save would replace an existing file the user did not agree to replace (code `exists`). */
export class OutputExists extends Error {
  readonly code = 'exists'
  /** `message` replaces the default text (the CLI names `--force`). */
  constructor(readonly path: string, message?: string) {
    super(message ?? `${path} already exists; choose another name, or confirm replacing it`)
    this.name = 'OutputExists'
  }
}

/** Errno codes of a write the user can fix by freeing space or choosing another place. */
const WRITE_FAULTS: Record<string, [reason: string, fix: string]> = {
  ENOSPC: ['the disk is full (no space left on the device)', 'free some space'],
  EDQUOT: ['the disk quota is used up', 'free some space'],
  EROFS: ['the folder is on a read-only file system', ''],
  EACCES: ['permission denied: the folder is not writable', 'make it writable'],
  EPERM: ['the operation is not permitted there', ''],
}

/**
 * A write failed for a reason of the place written to (disk full, read-only, no permission):
 * the message names the output the user gave (never the temp file) and what to do. `describe`
 * words it for the command line (`--out X: …; choose another --out`).
 */
export class OutputWriteError extends Error {
  readonly code: string
  constructor(readonly target: string, readonly errno: string, readonly reason: string, readonly fix: string) {
    super(`${target}: ${reason}; ${fix ? `${fix}, or choose` : 'choose'} another place to save`)
    this.name = 'OutputWriteError'
    this.code = errno
  }

  /** The message naming the option that gave the output (e.g. `--out`). */
  describe(flag: string): string {
    return `${flag} ${this.target}: ${this.reason}; ${this.fix ? `${this.fix}, or choose` : 'choose'} another ${flag}`
  }
}

/** `e` as an OutputWriteError naming `target` when it is a disk-full / read-only / permission fault, else `e`. */
export function outputWriteFault(target: string, e: unknown): unknown {
  const err = e as NodeJS.ErrnoException | null
  const f = err?.code ? WRITE_FAULTS[err.code] : undefined
  if (!f || e instanceof OutputWriteError) return e
  // a fault on a path outside the output's folder (an input read while writing) is not the output's
  const dir = path.dirname(path.resolve(target))
  if (err!.path && path.relative(dir, path.resolve(err!.path)).startsWith('..')) return e
  return new OutputWriteError(target, err!.code!, f[0], f[1])
}

/**
 * What a file is made of: its bytes, a string (UTF-8), or chunks of either produced one after the
 * other (a generator: a big document is written without ever being one string in memory).
 */
export type FileContent = Uint8Array | string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>

/** Chunks are gathered up to this many bytes per write, so many small pieces cost few writes. */
const WRITE_BATCH = 64 * 1024

/**
 * Writes `content` to the open file `fh` from its current position (chunks in order). Chunks are
 * encoded straight into one reused buffer (no Buffer per chunk), written when it is full.
 */
async function writeContent(fh: FileHandle, content: FileContent): Promise<void> {
  injectedFault()
  if (typeof content === 'string' || content instanceof Uint8Array) {
    await fh.writeFile(content)
    return
  }
  const buf = Buffer.allocUnsafe(WRITE_BATCH)
  let used = 0
  const flush = async () => {
    if (used) await writeAll(fh, buf.subarray(0, used))
    used = 0
  }
  for await (const chunk of content as AsyncIterable<string | Uint8Array>) {
    const isText = typeof chunk === 'string'
    if (!isText && !(chunk instanceof Uint8Array)) throw new TypeError(`a file chunk must be a string or a Uint8Array, not ${typeof chunk}`)
    const size = isText ? Buffer.byteLength(chunk, 'utf8') : chunk.byteLength
    if (used + size > WRITE_BATCH) await flush()
    if (size > WRITE_BATCH) await writeAll(fh, isText ? Buffer.from(chunk, 'utf8') : chunk)
    else if (isText) used += buf.write(chunk, used, 'utf8')
    else {
      buf.set(chunk, used)
      used += size
    }
  }
  await flush()
}

/**
 * Test seam for a full disk where no tiny file system can be mounted (not root): with
 * MODBENCH_FAULT_ENOSPC=1 every write of an atomic writer fails as on a full disk
 * (tests/integration/faults-disk.test.ts; a tmpfs is used where the test can mount one).
 */
export function injectedFault(): void {
  if (process.env.MODBENCH_FAULT_ENOSPC === '1') throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' })
}

/** fh.write until every byte is written (a write may take fewer bytes than asked). */
async function writeAll(fh: FileHandle, buf: Uint8Array): Promise<void> {
  for (let off = 0; off < buf.byteLength; ) {
    const { bytesWritten } = await fh.write(buf, off)
    if (bytesWritten <= 0) throw new Error(`a write of ${buf.byteLength - off} bytes wrote nothing`)
    off += bytesWritten
  }
}

/** A temporary sibling name for `target` (same folder, so the final rename is atomic). */
export function tempSibling(target: string): string {
  const dir = path.dirname(target)
  return path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
}

/** Creates the new file `tmp` with `content`, flushed to the disk (fsync) before it is closed. */
async function writeSyncedTemp(tmp: string, content: FileContent): Promise<void> {
  const fh = await fsp.open(tmp, 'wx')
  try {
    await writeContent(fh, content)
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/**
 * Writes `bytes` (or chunks, see FileContent) to `target` atomically: temp file in the same folder, fsync, rename.
 * A failure leaves no partial file behind. Refuses to overwrite any path in `protect`
 * (the inputs of the operation), because writers never modify their inputs.
 */
export async function writeFileAtomic(target: string, bytes: FileContent, protect: string[] = []): Promise<void> {
  const abs = path.resolve(target)
  for (const p of protect) {
    if (path.resolve(p) === abs) throw new Error(`refusing to overwrite the input file ${p}`)
  }
  const tmp = tempSibling(abs)
  try {
    await writeSyncedTemp(tmp, bytes)
    await fsp.rename(tmp, abs)
  } catch (e) {
    await fsp.rm(tmp, { force: true })
    throw outputWriteFault(target, e)
  }
}

/**
 * Writes `bytes` to a new file `target` atomically, refusing to replace anything there: the temp
 * file is hard-linked to the target name (which fails when the name exists), then removed.
 */
export async function writeNewFileAtomic(target: string, bytes: Uint8Array): Promise<void> {
  const abs = path.resolve(target)
  if (await fsp.lstat(abs).catch(() => null)) throw new Error(`${target} already exists; refusing to overwrite it (choose a new name)`)
  const tmp = tempSibling(abs)
  try {
    await writeSyncedTemp(tmp, bytes)
    await fsp.link(tmp, abs).catch((e: NodeJS.ErrnoException) => {
      throw e.code === 'EEXIST' ? new Error(`${target} already exists; refusing to overwrite it (choose a new name)`) : e
    })
  } catch (e) {
    throw outputWriteFault(target, e)
  } finally {
    await fsp.rm(tmp, { force: true })
  }
}

/**
 * Writes a whole new folder atomically: every file goes into a temporary sibling folder, `verify`
 * (if given) checks the temp folder, then one rename puts it in place. `dir` must not exist yet
 * (or be an empty folder), so an existing folder is never half-replaced; with `replace` (the user
 * agreed, `--force`) an existing folder is moved aside, the new one renamed in, then the old one
 * removed (put back if the rename fails).
 */
export async function writeDirAtomic(
  dir: string,
  files: Iterable<[relPath: string, content: FileContent]> | AsyncIterable<[relPath: string, content: FileContent]>,
  verify?: (tmpDir: string) => Promise<void>,
  opts: { replace?: boolean } = {},
): Promise<void> {
  const abs = path.resolve(dir)
  let replacing = false
  if (existsSync(abs)) {
    const entries = await fsp.readdir(abs).catch(() => null)
    if (entries === null) throw new Error(`output ${dir} exists and is not a folder`)
    if (entries.length && !opts.replace) throw new Error(`output folder ${dir} already exists and is not empty; choose a new folder`)
    replacing = entries.length > 0
  }
  await fsp.mkdir(path.dirname(abs), { recursive: true }).catch((e: unknown) => {
    throw outputWriteFault(dir, e)
  })
  const tmp = tempSibling(abs)
  try {
    await fsp.mkdir(tmp)
    const made = new Set([tmp]) // folders made so far: one mkdir per folder, not per file
    for await (const [rel, content] of files as AsyncIterable<[string, FileContent]>) {
      const out = path.resolve(tmp, rel)
      if (!out.startsWith(tmp + path.sep)) throw new Error(`refusing to write outside the output folder: ${rel}`)
      const parent = path.dirname(out)
      if (!made.has(parent)) {
        await fsp.mkdir(parent, { recursive: true })
        made.add(parent)
      }
      const fh = await fsp.open(out, 'w')
      try {
        await writeContent(fh, content)
      } finally {
        await fh.close()
      }
    }
    if (verify) await verify(tmp)
    if (replacing) await swapDir(tmp, abs)
    else {
      if (existsSync(abs)) await fsp.rmdir(abs)
      await fsp.rename(tmp, abs)
    }
  } catch (e) {
    await fsp.rm(tmp, { recursive: true, force: true })
    throw outputWriteFault(dir, e)
  }
}

/** Puts the folder `tmp` at `abs` in place of the existing folder there (old one removed last). */
async function swapDir(tmp: string, abs: string): Promise<void> {
  const aside = tempSibling(abs)
  await fsp.rename(abs, aside)
  try {
    await fsp.rename(tmp, abs)
  } catch (e) {
    await fsp.rename(aside, abs)
    throw e
  }
  await fsp.rm(aside, { recursive: true, force: true })
}
