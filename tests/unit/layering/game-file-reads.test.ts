/**
 * "A domain reads a user's game file only through the guarded reader": no file under
 * src-main/domains reads with raw fs (readFile, readFileSync, open, read, readSync, streams);
 * reads go through `readGameFile` / `openGameFileRange` (src-main/node/game-file.ts: the size
 * guard, gzip under the ISIZE guard, errors naming the file). The few raw calls that read no game
 * file are listed with why, by their exact text, so a new raw read in the same file still fails.
 * Comments are not code and are skipped.
 */
import { describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..', '..')
const DOMAINS = 'src-main/domains'

/** A raw fs read: readFile(Sync), open(Sync), read(Sync), createReadStream, or a handle's read. */
const RAW_READ = /(?:\b(?:fs|fsp|promises)\.)*\b(?:readFile(?:Sync)?|openSync|readSync|createReadStream)\s*\(|\b(?:fs|fsp|promises|fh)\.(?:open|read)\s*\(/g

/** Raw calls that are not reads of a game file: [file under src-main/domains, the call's text, why]. */
const ALLOWED: [string, string, string][] = [
  ['gf/garc-pack.ts', "fs.openSync(tmp, 'wx')", 'creates the output archive (a write)'],
  ['gf/repack.ts', 'fsp.readFile(path.join(tmp, name))', 'verifies the output just written in the temp folder'],
  ['gf/png.ts', 'fsp.readFile(file)', "a replacement image the user made (PNG), decoded with pngjs's own checks"],
  ['gf/png-folder.ts', "fsp.open(file, 'r')", "the 24-byte header of the user's replacement PNG"],
  ['gf/png-folder.ts', 'fh.read(buf, 0, 24, 0)', "the 24-byte header of the user's replacement PNG"],
]

function code(file: string): string {
  const src = fs.readFileSync(path.join(root, DOMAINS, file), 'utf8')
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}

/** Each raw read call in `text` as `name(args…` up to the end of its line. */
function rawReads(text: string): string[] {
  return [...text.matchAll(RAW_READ)].map((m) => text.slice(m.index, text.indexOf('\n', m.index) >>> 0 || undefined))
}

describe('game file reads in the domains', () => {
  it('the scan finds the raw read forms (so a pass below means something)', () => {
    const forms = ['await fsp.readFile(p)', 'fs.readFileSync(p)', "fs.openSync(p, 'r')", 'fs.readSync(fd, b, 0, 4, 0)', "await fsp.open(p, 'r')", 'fs.createReadStream(p)', 'fs.promises.readFile(p)', 'fs.read(fd, b, 0, 4, 0, cb)']
    for (const f of forms) expect(rawReads(`${f}\n`), f).toHaveLength(1)
    expect(rawReads('await readGameFile(p, LIMITS)\nrange.read(0, 4)\n')).toEqual([])
  })

  it('go through readGameFile / openGameFileRange, except the listed non-game reads', () => {
    const files = (fs.readdirSync(path.join(root, DOMAINS), { recursive: true }) as string[]).filter((f) => /\.(ts|mts|mjs)$/.test(f))
    expect(files.length).toBeGreaterThan(50)
    const found: string[] = []
    const used = new Set<number>()
    for (const f of files) {
      const rel = f.split(path.sep).join('/')
      for (const call of rawReads(code(f))) {
        const k = ALLOWED.findIndex(([file, text]) => file === rel && call.startsWith(text))
        if (k >= 0) used.add(k)
        else found.push(`${rel}: ${call.trim()}`)
      }
    }
    expect(found, 'raw fs reads in src-main/domains: read game files with readGameFile or openGameFileRange (src-main/node/game-file.ts)').toEqual([])
    // an entry whose call is gone is stale: drop it, so it cannot excuse a later raw read
    expect(ALLOWED.filter((_, k) => !used.has(k)).map(([file, text]) => `${file}: ${text}`)).toEqual([])
  })
})
