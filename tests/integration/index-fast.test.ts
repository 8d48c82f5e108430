/**
 * Indexing near the disk (issue 15 item 3): the size+mtime+inode fast path (and --force), one
 * read per file with both hashes, many sources batched with per-source rollback, streamed ls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'
import { readHashed } from '../../src-main/indexer/read-source'
import { genericRom } from '../fixtures/platform/n64'
import { cli } from '../helpers/cli'

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-idx-fast-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Writes a ROM whose header name is `name`, dated an hour ago (not "racily clean"). */
function oldRom(file: string, name: string): void {
  fs.writeFileSync(file, genericRom(name, 'NFSE'))
  const t = new Date(Date.now() - 3600_000)
  fs.utimesSync(file, t, t)
}

/** Rewrites a file's bytes in place (same inode, same size) and puts its old mtime back. */
function rewriteKeepingStamp(file: string, bytes: Uint8Array): void {
  const st = fs.statSync(file)
  const fd = fs.openSync(file, 'r+')
  fs.writeSync(fd, bytes, 0, bytes.length, 0)
  fs.closeSync(fd)
  fs.utimesSync(file, st.atime, st.mtime)
  expect(fs.statSync(file).ino).toBe(st.ino)
}

describe('re-indexing an unchanged library', () => {
  it('answers from size + mtime + inode without reading; --force reads again', async () => {
    const lib = path.join(dir, 'lib')
    fs.mkdirSync(lib)
    for (let i = 0; i < 5; i++) oldRom(path.join(lib, `g${i}.z64`), `GAME ${i}`)
    const db = path.join(dir, 'fast.sqlite')
    expect((await cli(['index', lib, '--db', db, '--json'])).json().sources.map((s: { status: string }) => s.status)).toEqual(Array(5).fill('indexed'))
    // Same size, mtime and inode, other bytes: an unread file cannot notice (git's index neither).
    rewriteKeepingStamp(path.join(lib, 'g0.z64'), genericRom('CHANGED', 'NFSE'))
    const again = (await cli(['index', lib, '--db', db, '--json'])).json()
    expect(again.sources.map((s: { status: string }) => s.status)).toEqual(Array(5).fill('unchanged'))
    expect(again.assets).toBe(5)
    expect((await cli(['find', 'changed', '--db', db, '--json'])).json()).toEqual([])
    const forced = (await cli(['index', lib, '--db', db, '--force', '--json'])).json()
    expect(forced.sources.map((s: { status: string }) => s.status)).toEqual(Array(5).fill('indexed'))
    expect((await cli(['find', 'changed', '--db', db, '--json'])).json().map((a: { name: string }) => a.name)).toEqual(['CHANGED (NFSE)'])
  })

  it('reads a file whose mtime moved, keeps it when its hash is the same, and trusts the new stamp after', async () => {
    const lib = path.join(dir, 'touch')
    fs.mkdirSync(lib)
    const f = path.join(lib, 't.z64')
    oldRom(f, 'TOUCHED')
    const cat = openCatalog(path.join(dir, 'touch.sqlite'))
    try {
      expect((await indexPaths(cat, [lib])).sources[0]!.status).toBe('indexed')
      const t = new Date(Date.now() - 1800_000)
      fs.utimesSync(f, t, t)
      expect((await indexPaths(cat, [lib])).sources[0]!.status).toBe('unchanged')
      expect(cat.sourceByPath(f)!.mtime).toBe(fs.statSync(f).mtimeMs)
      // now the stamp is trusted: a same-stamp rewrite goes unnoticed again
      rewriteKeepingStamp(f, genericRom('UNSEEN', 'NFSE'))
      await indexPaths(cat, [lib])
      expect(cat.search('unseen')).toEqual([])
    } finally {
      cat.close()
    }
  })

  it('does not trust a stamp taken within 2 s of the file being written (racily clean)', async () => {
    const lib = path.join(dir, 'racy')
    fs.mkdirSync(lib)
    const f = path.join(lib, 'r.z64')
    fs.writeFileSync(f, genericRom('FIRST', 'NRCE'))
    const cat = openCatalog(path.join(dir, 'racy.sqlite'))
    try {
      await indexPaths(cat, [lib])
      rewriteKeepingStamp(f, genericRom('SECOND', 'NRCE'))
      expect((await indexPaths(cat, [lib])).sources[0]!.status).toBe('indexed')
      expect(cat.search('second').map((a) => a.name)).toEqual(['SECOND (NRCE)'])
    } finally {
      cat.close()
    }
  })
})

describe('one read per file', () => {
  it('hashes SHA-1 and MD5 in the same pass, reusing the detection head', async () => {
    const f = path.join(dir, 'big.bin')
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 2654435761) >>> 24)
    fs.writeFileSync(f, bytes)
    const st = fs.statSync(f)
    const head = { bytes: bytes.subarray(0, 65536), size: st.size, mtimeMs: st.mtimeMs }
    for (const r of [await readHashed(f), await readHashed(f, head)]) {
      expect(r.sha1).toBe(createHash('sha1').update(bytes).digest('hex'))
      expect(r.md5).toBe(createHash('md5').update(bytes).digest('hex'))
      expect(Buffer.from(r.bytes).equals(Buffer.from(bytes))).toBe(true)
    }
    // a head from before the file changed is not trusted
    const stale = await readHashed(f, { ...head, bytes: new Uint8Array(65536), mtimeMs: st.mtimeMs - 5000 })
    expect(stale.sha1).toBe(createHash('sha1').update(bytes).digest('hex'))
  })

  it('hashes a big file (read ahead on the thread pool, MD5 on a second thread) to the same digests, twice in a row and two at once', async () => {
    const f = path.join(dir, 'huge.bin')
    const bytes = new Uint8Array(9 * 1024 * 1024 + 3).map((_, i) => (i * 2246822519) >>> 24)
    fs.writeFileSync(f, bytes)
    const g = path.join(dir, 'huge2.bin')
    const other = bytes.map((b) => b ^ 0x5a)
    fs.writeFileSync(g, other)
    // one after another, then two at once (the MD5 thread serves them in turn)
    const runs = [await readHashed(f), await readHashed(f), ...(await Promise.all([readHashed(g), readHashed(f)]))]
    const want = [bytes, bytes, other, bytes]
    runs.forEach((r, i) => {
      expect(r.size).toBe(want[i]!.length)
      expect(r.sha1).toBe(createHash('sha1').update(want[i]!).digest('hex'))
      expect(r.md5).toBe(createHash('md5').update(want[i]!).digest('hex'))
      expect(Buffer.from(r.bytes).equals(Buffer.from(want[i]!))).toBe(true)
    })
  })

  it('gives the N64 detector the MD5 of the bytes it read', async () => {
    const f = path.join(dir, 'md5.z64')
    const rom = genericRom('MD5 GAME', 'NMDE')
    fs.writeFileSync(f, rom)
    const cat = openCatalog(path.join(dir, 'md5.sqlite'))
    try {
      await indexPaths(cat, [f])
      expect(cat.sourceByPath(f)!.metadata.md5).toBe(createHash('md5').update(rom).digest('hex'))
      expect(cat.sourceByPath(f)!.hash).toBe(createHash('sha1').update(rom).digest('hex'))
    } finally {
      cat.close()
    }
  })
})

describe('many small sources in one transaction', () => {
  it('a source that fails inside the batch leaves none of its rows; the others stay', async () => {
    const lib = path.join(dir, 'batch')
    fs.mkdirSync(lib)
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(lib, `b${String(i).padStart(2, '0')}.z64`), genericRom(`BATCH ${i}`, 'NBTE'))
    const cat = openCatalog(path.join(dir, 'batch.sqlite'))
    try {
      const res = await indexPaths(cat, [lib], {
        duringTransaction: (src) => {
          if (src.endsWith('b07.z64')) throw new Error('disk full (test)')
        },
      })
      const bad = res.sources.find((s) => s.path.endsWith('b07.z64'))!
      expect(bad.status).toBe('error')
      expect(bad.error).toMatch(/disk full/)
      expect(res.sources.filter((s) => s.status === 'indexed')).toHaveLength(29)
      expect(cat.list({ source: path.join(lib, 'b07.z64') })).toEqual([])
      expect(cat.search('batch').length).toBe(29)
      expect(cat.db.inTransaction).toBe(false)
      expect(cat.integrityCheck()).toBe('ok')
    } finally {
      cat.close()
    }
  })
})

describe('ls streamed', () => {
  it('prints the same JSON array and text table as the whole list would', async () => {
    const lib = path.join(dir, 'ls')
    fs.mkdirSync(path.join(lib, 'b'), { recursive: true })
    for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(lib, i % 2 ? 'b' : '', `l${i}.z64`), genericRom(`LIST "${i}"\\`, 'NLSE'))
    const db = path.join(dir, 'ls.sqlite')
    await cli(['index', lib, '--db', db])
    const cat = openCatalog(db)
    const rows = cat.list()
    cat.close()
    const items = rows.map((a) => ({ id: a.id, kind: a.kind, name: a.name, source: a.sourcePath ?? '', parent: a.parent }))
    expect((await cli(['ls', '--db', db, '--json'])).stdout).toBe(JSON.stringify(items, null, 2) + '\n')
    const w = Math.max(2, ...rows.map((r) => String(r.id).length))
    const k = Math.max(4, ...rows.map((r) => r.kind.length))
    const text = rows.map((r) => `${String(r.id).padStart(w)}  ${r.kind.padEnd(k)}  ${r.name}  (${path.basename(r.sourcePath!)})`).join('\n') + '\n'
    expect((await cli(['ls', '--db', db])).stdout).toBe(text)
    expect((await cli(['ls', '--db', db, '--source', path.join(lib, 'b'), '--json'])).json()).toEqual(items.filter((i) => i.source.startsWith(path.join(lib, 'b') + path.sep)))
    const none = await cli(['ls', '--db', db, '--kind', 'nothing'])
    expect([none.stdout, none.stderr]).toEqual(['', 'no assets\n'])
  })
})
