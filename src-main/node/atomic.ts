import { promises as fsp, existsSync } from 'node:fs'
import * as path from 'node:path'
import { randomBytes } from 'node:crypto'

/** A save would replace an existing file the user did not agree to replace (code `exists`). */
export class OutputExists extends Error {
  readonly code = 'exists'
  constructor(p: string) {
    super(`${p} already exists; choose another name, or confirm replacing it`)
    this.name = 'OutputExists'
  }
}

/** A temporary sibling name for `target` (same folder, so the final rename is atomic). */
export function tempSibling(target: string): string {
  const dir = path.dirname(target)
  return path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
}

/**
 * Writes `bytes` to `target` atomically: temp file in the same folder, fsync, rename.
 * A failure leaves no partial file behind. Refuses to overwrite any path in `protect`
 * (the inputs of the operation), because writers never modify their inputs.
 */
export async function writeFileAtomic(target: string, bytes: Uint8Array | string, protect: string[] = []): Promise<void> {
  const abs = path.resolve(target)
  for (const p of protect) {
    if (path.resolve(p) === abs) throw new Error(`refusing to overwrite the input file ${p}`)
  }
  const tmp = tempSibling(abs)
  try {
    const fh = await fsp.open(tmp, 'wx')
    try {
      await fh.writeFile(bytes)
      await fh.sync()
    } finally {
      await fh.close()
    }
    await fsp.rename(tmp, abs)
  } catch (e) {
    await fsp.rm(tmp, { force: true })
    throw e
  }
}

/**
 * Writes a whole new folder atomically: every file goes into a temporary sibling folder, `verify`
 * (if given) checks the temp folder, then one rename puts it in place. `dir` must not exist yet
 * (or be an empty folder), so an existing folder is never half-replaced.
 */
export async function writeDirAtomic(
  dir: string,
  files: Iterable<[relPath: string, bytes: Uint8Array | string]> | AsyncIterable<[string, Uint8Array | string]>,
  verify?: (tmpDir: string) => Promise<void>,
): Promise<void> {
  const abs = path.resolve(dir)
  if (existsSync(abs)) {
    const entries = await fsp.readdir(abs).catch(() => null)
    if (entries === null) throw new Error(`output ${dir} exists and is not a folder`)
    if (entries.length) throw new Error(`output folder ${dir} already exists and is not empty; choose a new folder`)
  }
  await fsp.mkdir(path.dirname(abs), { recursive: true })
  const tmp = tempSibling(abs)
  try {
    await fsp.mkdir(tmp)
    for await (const [rel, bytes] of files as AsyncIterable<[string, Uint8Array | string]>) {
      const out = path.resolve(tmp, rel)
      if (!out.startsWith(tmp + path.sep)) throw new Error(`refusing to write outside the output folder: ${rel}`)
      await fsp.mkdir(path.dirname(out), { recursive: true })
      await fsp.writeFile(out, bytes)
    }
    if (verify) await verify(tmp)
    if (existsSync(abs)) await fsp.rmdir(abs)
    await fsp.rename(tmp, abs)
  } catch (e) {
    await fsp.rm(tmp, { recursive: true, force: true })
    throw e
  }
}
