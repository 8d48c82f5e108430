/**
 * `ls` in text mode prints its first rows before it has looked at every source (issue 26: it
 * counted every source's assets first, so at a million assets the first row came 2–3.6× later
 * than with --json). Measured by work, not time: the statements run before the first write to
 * stdout must not grow with the number of sources.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import Database from 'better-sqlite3'
import { openCatalog } from '../../../../../src-main/catalog/catalog'
import { runCli } from '../../../../../src-main/cli/main'
import { sourceDrafts } from '../../../../../bench/catalog-data'

let tmp: string
let db: string
const SOURCES = 40

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mb-ls-'))
  db = path.join(tmp, 'cat.sqlite')
  const c = openCatalog(db)
  for (let s = 0; s < SOURCES; s++) c.replaceSource({ path: path.join(tmp, `src${String(s).padStart(2, '0')}`), size: 1, mtime: 1, hash: `h${s}`, kind: 'gf-set' }, sourceDrafts(s, s === 0 ? 5000 : 50))
  c.close()
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Counts statement executions (get/all/iterate/run) on every better-sqlite3 statement while `fn` runs. */
async function countingStatements<T>(fn: (count: () => number) => Promise<T>): Promise<T> {
  const probe = new Database(':memory:')
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>
  probe.close()
  let n = 0
  const saved = new Map<string, (...a: unknown[]) => unknown>()
  for (const m of ['get', 'all', 'iterate', 'run']) {
    const orig = proto[m]!
    saved.set(m, orig)
    proto[m] = function (this: unknown, ...a: unknown[]) {
      n++
      return orig.apply(this, a)
    }
  }
  try {
    return await fn(() => n)
  } finally {
    for (const [m, f] of saved) proto[m] = f
  }
}

describe('ls (text) streams', () => {
  it('writes its first rows after a number of statements that does not grow with the sources', async () => {
    let atFirstWrite = -1
    let out = ''
    const code = await countingStatements((count) =>
      runCli(['ls', '--db', db], {
        stdout: { write: (s: string) => { if (atFirstWrite < 0) atFirstWrite = count(); out += s } },
        stderr: { write: () => undefined },
      }),
    )
    expect(code).toBe(0)
    // the first source holds 5 000 assets: its first 4 096 rows are written while it is still read
    expect(atFirstWrite).toBeGreaterThan(0)
    expect(atFirstWrite).toBeLessThan(SOURCES / 2) // 11 here (opening the catalog, the widths, the first source); one a source before
    const lines = out.trimEnd().split('\n')
    expect(lines).toHaveLength(5000 + 50 * (SOURCES - 1))
    // aligned columns: every line's kind column starts at the same place
    const at = new Set(lines.map((l) => /^\s*\d+ {2}/.exec(l)![0].length))

    expect(at.size).toBe(1)
  })

  it('says "no assets" when a filter matches nothing, and prints nothing on stdout', async () => {
    let out = ''
    let err = ''
    const code = await runCli(['ls', '--db', db, '--kind', 'nothing-like-this'], { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } })
    expect(code).toBe(0)
    expect(out).toBe('')
    expect(err).toMatch(/no assets/)
  })
})
