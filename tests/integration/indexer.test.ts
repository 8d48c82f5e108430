import { describe, expect, it, beforeAll, afterAll } from 'vitest'
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'
import { cli, cliBin, spawnCli } from '../helpers/cli'

/** A small big-endian N64 image with the given header name and code (our own bytes). */
function romImage(name: string, code = 'NZZE', fill = 0x11, size = 0x2000): Uint8Array {
  const b = new Uint8Array(size).fill(fill)
  b.set([0x80, 0x37, 0x12, 0x40], 0)
  for (let i = 0; i < 20; i++) b[0x20 + i] = i < name.length ? name.charCodeAt(i) : 0x20
  for (let i = 0; i < 4; i++) b[0x3b + i] = code.charCodeAt(i)
  return b
}
const toV64 = (b: Uint8Array) => b.map((_, i) => b[i ^ 1]!)

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-idx-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('indexer', () => {
  it('detects ROMs by content in any byte order, records bad files and continues', async () => {
    const files = path.join(dir, 'files')
    fs.mkdirSync(path.join(files, 'sub'), { recursive: true })
    fs.writeFileSync(path.join(files, 'game.z64'), romImage('SOME GAME'))
    fs.writeFileSync(path.join(files, 'sub', 'swapped.bin'), toV64(romImage('OTHER GAME', 'NOGE')))
    fs.writeFileSync(path.join(files, 'broken.z64'), 'this is not a rom at all')
    fs.writeFileSync(path.join(files, 'notes.txt'), 'ignored')
    const cat = openCatalog(path.join(dir, 'a.sqlite'))
    const progress: string[] = []
    const res = await indexPaths(cat, [files], { onProgress: (p) => progress.push(p.phase) })
    const byName = Object.fromEntries(res.sources.map((s) => [path.basename(s.path), s]))
    expect(Object.keys(byName).sort()).toEqual(['broken.z64', 'game.z64', 'swapped.bin'])
    expect(byName['game.z64']!.status).toBe('indexed')
    expect(byName['swapped.bin']!.status).toBe('indexed')
    expect(byName['broken.z64']!.status).toBe('error')
    expect(byName['broken.z64']!.error).toMatch(/broken.z64: N64Header at 0x0: not an N64 ROM/)
    expect(progress).toContain('done')
    const v64 = cat.sourceByPath(path.join(files, 'sub', 'swapped.bin'))!
    expect(v64.metadata).toMatchObject({ title: 'OTHER GAME', code: 'NOGE', byteOrder: 'v64', game: 'other', })
    expect(cat.search('other').map((a) => a.name)).toEqual(['OTHER GAME (NOGE)'])
    // Re-indexing unchanged files does nothing.
    const again = await indexPaths(cat, [files])
    expect(again.sources.filter((s) => s.status === 'unchanged').length).toBe(2)
    cat.close()
  })

  it('stops between sources when cancelled', async () => {
    const files = path.join(dir, 'many')
    fs.mkdirSync(files, { recursive: true })
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(files, `r${i}.z64`), romImage(`GAME ${i}`))
    const cat = openCatalog(path.join(dir, 'cancel.sqlite'))
    const ac = new AbortController()
    const res = await indexPaths(cat, [files], { signal: ac.signal, onProgress: (p) => p.phase === 'index' && p.done === 2 && ac.abort() })
    expect(res.cancelled).toBe(true)
    expect(res.sources.length).toBe(2)
    expect(cat.sources().length).toBe(2)
    cat.close()
  })

  it('keeps the previous state when the indexing process is killed mid-transaction (SIGKILL)', async () => {
    const files = path.join(dir, 'kill')
    fs.mkdirSync(files, { recursive: true })
    const rom = path.join(files, 'game.z64')
    const db = path.join(dir, 'kill.sqlite')
    fs.writeFileSync(rom, romImage('FIRST NAME', 'NAAE', 0x22))
    const first = await spawnCli(['index', rom, '--db', db, '--json'])
    expect(first.code).toBe(0)
    const before = openCatalog(db)
    const hash1 = before.sourceByPath(rom)!.hash
    expect(before.list().map((a) => a.name)).toEqual(['FIRST NAME (NAAE)'])
    before.close()

    fs.writeFileSync(rom, romImage('SECOND NAME', 'NBBE', 0x33))
    const child = spawn(process.execPath, [cliBin, 'index', rom, '--db', db], { env: { ...process.env, MODBENCH_TEST_PAUSE_IN_TXN: '60000' }, stdio: ['ignore', 'ignore', 'pipe'] })
    await new Promise<void>((resolve, reject) => {
      let err = ''
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString()
        if (err.includes('PAUSED-IN-TRANSACTION')) resolve()
      })
      child.on('close', () => reject(new Error(`indexer ended before pausing: ${err}`)))
    })
    child.kill('SIGKILL')
    await new Promise((r) => child.on('close', r))

    const after = openCatalog(db)
    expect(after.integrityCheck()).toBe('ok')
    expect(after.sourceByPath(rom)!.hash).toBe(hash1)
    expect(after.list().map((a) => a.name)).toEqual(['FIRST NAME (NAAE)'])
    expect(after.search('second')).toEqual([])
    after.close()
  })
})

describe('catalog CLI', () => {
  it('index, ls, find and info print the JSON of CLI.md', async () => {
    const files = path.join(dir, 'cli')
    fs.mkdirSync(files, { recursive: true })
    fs.writeFileSync(path.join(files, 'x.z64'), romImage('CLI GAME', 'NCCE'))
    const db = path.join(dir, 'cli.sqlite')
    const idx = await cli(['index', files, '--db', db, '--json'])
    expect(idx.code).toBe(0)
    expect(idx.json()).toEqual({ sources: [{ path: path.join(files, 'x.z64'), kind: 'n64-rom', status: 'indexed', assets: 1 }], assets: 1 })
    const ls = (await cli(['ls', '--db', db, '--json'])).json()
    expect(ls).toEqual([{ id: expect.any(Number), kind: 'n64-rom', name: 'CLI GAME (NCCE)', source: path.join(files, 'x.z64'), parent: null }])
    expect((await cli(['ls', '--db', db, '--kind', 'gf-texture', '--json'])).json()).toEqual([])
    expect((await cli(['find', 'cli', '--db', db, '--json'])).json()).toEqual(ls)
    const info = await cli(['info', String(ls[0].id), '--db', db, '--json'])
    expect(info.json()).toMatchObject({ id: ls[0].id, kind: 'n64-rom', metadata: { code: 'NCCE' }, sourceMetadata: { byteOrder: 'z64' } })
    expect((await cli(['info', '99999', '--db', db])).code).toBe(1)
  })

  it('exit code 2 on usage errors, --help on every command', async () => {
    expect((await cli(['ls', '--bogus'])).code).toBe(2)
    expect((await cli(['info'])).code).toBe(2)
    expect((await cli(['frobnicate'])).code).toBe(2)
    const help = await cli(['index', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/Usage: modbench index PATH/)
    const top = await spawnCli(['--help'])
    expect(top.code).toBe(0)
    for (const c of ['index', 'ls', 'find', 'info', 'serve']) expect(top.stdout).toContain(c)
  })
})

describe('index with a missing path', () => {
  it('records the missing path as an error and indexes the rest', async () => {
    const files = path.join(dir, 'missing')
    fs.mkdirSync(files, { recursive: true })
    fs.writeFileSync(path.join(files, 'ok.z64'), romImage('OK GAME'))
    const res = await cli(['index', path.join(files, 'nope.z64'), files, '--db', path.join(dir, 'missing.sqlite'), '--json'])
    expect(res.code).toBe(1)
    const doc = res.json()
    expect(doc.sources.map((s: { status: string }) => s.status).sort()).toEqual(['error', 'indexed'])
    expect(doc.sources.find((s: { status: string }) => s.status === 'error').error).toMatch(/nope.z64: no such file or folder/)
    expect(doc.assets).toBe(1)
  })
})

describe('index of a folder holding set files but no set (issue 25)', () => {
  it('names the damaged file with its structure and offset and what to do, exit 1; a subfolder met while walking stays quiet', async () => {
    const only = path.join(dir, 'only')
    fs.mkdirSync(path.join(dir, 'walk', 'inner'), { recursive: true })
    fs.mkdirSync(only)
    // 't','h' where a GF package's two-letter magic sits (offset 0)
    fs.writeFileSync(path.join(only, '0.bin'), 'this is no GF package')
    fs.writeFileSync(path.join(dir, 'walk', 'inner', '0.bin'), 'this is no GF package')
    const res = await cli(['index', only, '--db', path.join(dir, 'only.sqlite'), '--json'])
    expect(res.code).toBe(1)
    const [src] = res.json().sources
    expect(src).toMatchObject({ path: path.join(only, '0.bin'), status: 'error' })
    expect(src.error).toMatch(new RegExp(`^${path.join(only, '0.bin')}: 0\\.bin is damaged: its Package at offset 0x0 is wrong \\(magic 0x74 0x68`))
    expect(src.error).toContain('Replace 0.bin with an intact copy')
    const walked = await cli(['index', path.join(dir, 'walk'), '--db', path.join(dir, 'walk.sqlite'), '--json'])
    expect(walked.code).toBe(0)
    expect(walked.json().sources).toEqual([])
  })
})
