/**
 * Black-box contract tests of the platform (issue 2; CLI.md "Catalog"; DESIGN.md): the real CLI
 * (`runCli` in-process, and `node bin/modbench.mjs` spawned for exit codes and a clean stdout),
 * the catalog it writes, and browser mode's HTTP server. Inputs are our own bytes (synthetic N64
 * images, the bundled samples generated from our fixture builders); no game data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as http from 'node:http'
import * as net from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'
import { gunzipSync, gzipSync } from 'fflate'
import Database from 'better-sqlite3'
import { openCatalog } from '../../src-main/catalog/catalog'
import { migrations } from '../../src-main/catalog/migrations'
import { allCommands } from '../../src-main/cli/commands/index'
import { startServer, type RunningServer } from '../../src-main/transport/http-server'
import { AccessDenied, Services } from '../../src-main/services/index'
import { decodeEnvelope, isEnvelope } from '../../src-shared/transport/codec'
import { openRom, md5Hex } from '../../src-shared/formats/n64/rom'
import { SNAP_US_MD5, snapRomId } from '../../src-shared/formats/snap/rom-id'
import { STADIUM_US_MD5, stadiumRomId } from '../../src-shared/formats/stadium/rom-id'
import { cli, cliBin, repoRoot, spawnCli } from '../helpers/cli'

const SAMPLES = path.join(repoRoot, 'resources', 'samples')
const LIST_KEYS = ['id', 'kind', 'name', 'parent', 'source']

/** A big-endian N64 image with the given header name and code, filled with a pattern (our bytes). */
function rom(name: string, code = 'NZZE', seed = 1, size = 0x4000): Uint8Array {
  const b = new Uint8Array(size)
  for (let i = 0; i < size; i++) b[i] = (i * 7 + seed * 13) & 0xff
  b.set([0x80, 0x37, 0x12, 0x40], 0)
  for (let i = 0; i < 20; i++) b[0x20 + i] = i < name.length ? name.charCodeAt(i) : 0x20
  for (let i = 0; i < 4; i++) b[0x3b + i] = code.charCodeAt(i)
  b[0x3f] = 0
  return b
}
/** `.v64`: bytes swapped in pairs. */
const toV64 = (b: Uint8Array) => b.map((_, i) => b[i ^ 1]!)
/** `.n64`: 32-bit words byte-reversed. */
const toN64 = (b: Uint8Array) => b.map((_, i) => b[(i & ~3) + (3 - (i & 3))]!)

let tmp: string
const db = (name: string) => path.join(tmp, `${name}.sqlite`)
const mk = (...parts: string[]) => {
  const p = path.join(tmp, ...parts)
  fs.mkdirSync(p, { recursive: true })
  return p
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-contract-platform-'))
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

type Source = { path: string; kind: string; status: string; assets: number; error?: string }
type Item = { id: number; kind: string; name: string; source: string; parent: number | null }

describe('index: the bundled samples', () => {
  it('recognises every sample with its kind, then reports them unchanged', async () => {
    const d = db('samples')
    const first = await cli(['index', SAMPLES, '--db', d, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const doc = first.json() as { sources: Source[]; assets: number }
    expect(Object.keys(doc).sort()).toEqual(['assets', 'sources'])
    const kindOf = (rel: string) => doc.sources.find((s) => s.path === path.join(SAMPLES, rel))?.kind
    expect(kindOf('gf-set')).toBe('gf-set')
    expect(kindOf('re/sample.motlist.663')).toBe('re-motlist')
    expect(kindOf('re/sample_walk.mot.613')).toBe('re-mot')
    expect(kindOf('re/sample_wave_pose.json')).toBe('emv-pose')
    const snap = fs.readdirSync(SAMPLES).find((n) => n.startsWith('snap'))!
    const stadium = fs.readdirSync(SAMPLES).find((n) => n.startsWith('stadium'))!
    expect(kindOf(snap)).toBe('snap-rom')
    expect(kindOf(stadium)).toBe('stadium-rom')
    // Every file of the folder is accounted for: a source itself, or a member of the GF set.
    const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    for (const f of walk(SAMPLES)) {
      const covered = doc.sources.some((s) => s.path === f || (s.kind === 'gf-set' && path.dirname(f) === s.path))
      expect(covered, f).toBe(true)
    }
    for (const s of doc.sources) {
      expect(Object.keys(s).sort()).toEqual(['assets', 'kind', 'path', 'status'])
      expect(s.status).toBe('indexed')
      expect(s.assets).toBeGreaterThan(0)
    }
    expect(doc.assets).toBe(doc.sources.reduce((n, s) => n + s.assets, 0))
    const ls = (await cli(['ls', '--db', d, '--json'])).json() as Item[]
    expect(ls.length).toBe(doc.assets)
    for (const s of doc.sources) expect(ls.filter((a) => a.source === s.path).length, s.path).toBe(s.assets)

    const again = await cli(['index', SAMPLES, '--db', d, '--json'])
    expect(again.code).toBe(0)
    const doc2 = again.json() as { sources: Source[]; assets: number }
    expect(doc2.sources.map((s) => s.status)).toEqual(doc.sources.map(() => 'unchanged'))
    expect(doc2.sources.map((s) => [s.path, s.kind, s.assets])).toEqual(doc.sources.map((s) => [s.path, s.kind, s.assets]))
    expect(doc2.assets).toBe(doc.assets)
    // Unchanged means untouched: the same ids.
    expect(((await cli(['ls', '--db', d, '--json'])).json() as Item[]).map((a) => a.id)).toEqual(ls.map((a) => a.id))
  })
})

describe('index: folders, changes and bad files', () => {
  it('recurses into sub-folders and ignores files it does not recognise', async () => {
    const root = mk('tree')
    fs.mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true })
    fs.writeFileSync(path.join(root, 'top.z64'), rom('TOP GAME', 'NTPE', 1))
    fs.writeFileSync(path.join(root, 'a', 'b', 'c', 'deep.n64'), toN64(rom('DEEP GAME', 'NDPE', 2)))
    fs.writeFileSync(path.join(root, 'a', 'readme.txt'), 'not a game file')
    const r = await cli(['index', root, '--db', db('tree'), '--json'])
    expect(r.code, r.stderr).toBe(0)
    const doc = r.json() as { sources: Source[]; assets: number }
    expect(doc.sources.map((s) => path.relative(root, s.path)).sort()).toEqual(['a/b/c/deep.n64', 'top.z64'])
    expect(doc.sources.every((s) => s.kind === 'n64-rom' && s.status === 'indexed')).toBe(true)
    const names = ((await cli(['ls', '--db', db('tree'), '--json'])).json() as Item[]).map((a) => a.name).sort()
    expect(names).toEqual(['DEEP GAME (NDPE)', 'TOP GAME (NTPE)'])
  })

  it('re-indexes a modified file and replaces its rows; a touched but identical file stays unchanged', async () => {
    const root = mk('modified')
    const f = path.join(root, 'game.z64')
    const d = db('modified')
    fs.writeFileSync(f, rom('OLDNAME GAME', 'NOLE', 3))
    fs.writeFileSync(path.join(root, 'other.z64'), rom('STEADY GAME', 'NSTE', 4))
    expect((await cli(['index', root, '--db', d])).code).toBe(0)
    const before = (await cli(['ls', '--db', d, '--source', f, '--json'])).json() as Item[]
    expect(before.map((a) => a.name)).toEqual(['OLDNAME GAME (NOLE)'])

    // Same bytes, new mtime: the content hash decides.
    const later = new Date(Date.now() + 60_000)
    fs.utimesSync(f, later, later)
    const touched = (await cli(['index', root, '--db', d, '--json'])).json() as { sources: Source[] }
    expect(touched.sources.map((s) => s.status)).toEqual(['unchanged', 'unchanged'])

    const forced = (await cli(['index', f, '--db', d, '--force', '--json'])).json() as { sources: Source[] }
    expect(forced.sources.map((s) => s.status)).toEqual(['indexed'])
    const reread = (await cli(['ls', '--db', d, '--source', f, '--json'])).json() as Item[]
    expect(reread.map((a) => a.name)).toEqual(['OLDNAME GAME (NOLE)'])
    expect(reread[0]!.id).not.toBe(before[0]!.id)
    before[0] = reread[0]!

    fs.writeFileSync(f, rom('NEWNAME GAME', 'NNWE', 5))
    const r = await cli(['index', root, '--db', d, '--json'])
    expect(r.code).toBe(0)
    const doc = r.json() as { sources: Source[]; assets: number }
    expect(doc.sources.find((s) => s.path === f)).toEqual({ path: f, kind: 'n64-rom', status: 'indexed', assets: 1 })
    expect(doc.sources.find((s) => s.path !== f)!.status).toBe('unchanged')
    const after = (await cli(['ls', '--db', d, '--source', f, '--json'])).json() as Item[]
    expect(after.map((a) => a.name)).toEqual(['NEWNAME GAME (NNWE)'])
    expect(((await cli(['ls', '--db', d, '--json'])).json() as Item[]).length).toBe(2)
    expect((await cli(['find', 'oldname', '--db', d, '--json'])).json()).toEqual([])
    expect(((await cli(['find', 'newname', '--db', d, '--json'])).json() as Item[]).map((a) => a.name)).toEqual(['NEWNAME GAME (NNWE)'])
    // Ids are never reused: the old id now names nothing, the new asset has a new id.
    expect((await cli(['info', String(before[0]!.id), '--db', d])).code).toBe(1)
    expect(after[0]!.id).toBeGreaterThan(before[0]!.id)
    const c = openCatalog(d)
    expect(c.sourceByPath(f)!.hash).not.toBe('')
    expect(c.integrityCheck()).toBe('ok')
    c.close()
  })

  it('re-indexing a folder forgets the sources whose files are gone', async () => {
    const root = mk('vanish')
    const d = db('vanish')
    fs.mkdirSync(path.join(root, 'sub'))
    fs.writeFileSync(path.join(root, 'keep.z64'), rom('KEEPER GAME', 'NKPE', 21))
    fs.writeFileSync(path.join(root, 'sub', 'gone.z64'), rom('GONER GAME', 'NGNE', 22))
    const elsewhere = mk('vanish-elsewhere')
    fs.writeFileSync(path.join(elsewhere, 'other.z64'), rom('ELSEWHERE GAME', 'NEWE', 23))
    expect((await cli(['index', root, elsewhere, '--db', d])).code).toBe(0)
    fs.rmSync(path.join(root, 'sub'), { recursive: true })
    fs.rmSync(path.join(elsewhere, 'other.z64'))
    const r = await cli(['index', root, '--db', d, '--json'])
    expect(r.code).toBe(0)
    const doc = r.json()
    expect(doc.removed).toEqual([path.join(root, 'sub', 'gone.z64')])
    expect(doc.sources.map((s: Source) => s.status)).toEqual(['unchanged'])
    const names = ((await cli(['ls', '--db', d, '--json'])).json() as Item[]).map((a) => a.name).sort()
    // Only what was under the re-indexed folder is forgotten.
    expect(names).toEqual(['ELSEWHERE GAME (NEWE)', 'KEEPER GAME (NKPE)'])
    expect((await cli(['find', 'goner', '--db', d, '--json'])).json()).toEqual([])
    // Nothing vanished: no "removed" key.
    expect((await cli(['index', root, '--db', d, '--json'])).json()).not.toHaveProperty('removed')
  })

  it('records a corrupt or unreadable file with its error and indexes the rest (exit 1, full JSON)', async () => {
    const root = mk('bad')
    const d = db('bad')
    fs.writeFileSync(path.join(root, 'good.z64'), rom('GOOD GAME', 'NGDE', 6))
    fs.writeFileSync(path.join(root, 'corrupt.z64'), 'plainly not an N64 image')
    fs.writeFileSync(path.join(root, 'short.z64'), Uint8Array.from([0x80, 0x37, 0x12, 0x40, 0, 0, 0, 0]))
    fs.writeFileSync(path.join(root, 'corrupt.motlist.663'), new Uint8Array(64).fill(0xab))
    fs.mkdirSync(path.join(root, 'z'))
    fs.writeFileSync(path.join(root, 'z', 'after.v64'), toV64(rom('AFTER GAME', 'NAFE', 7)))
    const r = await cli(['index', root, '--db', d, '--json'])
    expect(r.code).toBe(1)
    const doc = r.json() as { sources: Source[]; assets: number }
    const by = Object.fromEntries(doc.sources.map((s) => [path.relative(root, s.path), s]))
    expect(Object.keys(by).sort()).toEqual(['corrupt.motlist.663', 'corrupt.z64', 'good.z64', 'short.z64', 'z/after.v64'])
    expect(by['good.z64']!.status).toBe('indexed')
    expect(by['z/after.v64']!.status).toBe('indexed')
    for (const bad of ['corrupt.z64', 'short.z64', 'corrupt.motlist.663']) {
      const s = by[bad]!
      expect(s.status, bad).toBe('error')
      expect(s.assets).toBe(0)
      // The message names the file, the structure and the byte offset.
      expect(s.error, bad).toContain(bad)
      expect(s.error, bad).toMatch(/ at 0x[0-9A-F]+/)
    }
    expect(by['corrupt.z64']!.error).toMatch(/N64Header at 0x0/)
    expect(doc.assets).toBe(2)
    expect(r.stderr).toMatch(/corrupt\.z64/)
    const c = openCatalog(d)
    const errs = c.sources().filter((s) => s.status === 'error').map((s) => path.basename(s.path)).sort()
    expect(errs).toEqual(['corrupt.motlist.663', 'corrupt.z64', 'short.z64'])
    expect(c.sourceByPath(path.join(root, 'corrupt.z64'))!.error).toMatch(/not an N64 ROM/)
    c.close()
    // Fixing the file indexes it on the next run.
    fs.writeFileSync(path.join(root, 'corrupt.z64'), rom('FIXED GAME', 'NFXE', 8))
    const again = (await cli(['index', path.join(root, 'corrupt.z64'), '--db', d, '--json'])).json() as { sources: Source[] }
    expect(again.sources[0]!.status).toBe('indexed')
  })

  it('a file or folder without read permission is an error naming it; the rest is indexed', async () => {
    const root = mk('perm')
    fs.chmodSync(tmp, 0o755)
    fs.chmodSync(root, 0o777)
    fs.writeFileSync(path.join(root, 'ok.z64'), rom('OPEN GAME', 'NOPE', 24))
    fs.writeFileSync(path.join(root, 'locked.z64'), rom('LOCKED GAME', 'NLCE', 25))
    fs.mkdirSync(path.join(root, 'lockeddir'))
    fs.writeFileSync(path.join(root, 'lockeddir', 'in.z64'), rom('INSIDE GAME', 'NINE', 26))
    fs.chmodSync(path.join(root, 'locked.z64'), 0)
    fs.chmodSync(path.join(root, 'lockeddir'), 0)
    const d = path.join(root, 'c.sqlite')
    let r: { code: number | null; stdout: string; stderr: string }
    try {
      if (process.getuid?.() !== 0) r = await cli(['index', root, '--db', d, '--json'])
      else {
        // root reads everything: run the real binary as an unprivileged user where possible.
        const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => fs.existsSync(p))
        if (!runuser) return
        r = await new Promise((resolve, reject) => {
          const child = spawn(runuser, ['-u', 'nobody', '--', process.execPath, cliBin, 'index', root, '--db', d, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
          let stdout = ''
          let stderr = ''
          child.stdout.setEncoding('utf8').on('data', (x: string) => (stdout += x))
          child.stderr.setEncoding('utf8').on('data', (x: string) => (stderr += x))
          child.on('error', reject)
          child.on('close', (code) => resolve({ code, stdout, stderr }))
        })
      }
    } finally {
      fs.chmodSync(path.join(root, 'locked.z64'), 0o644)
      fs.chmodSync(path.join(root, 'lockeddir'), 0o755)
    }
    expect(r.code, r.stderr).toBe(1)
    expect(r.stdout, r.stderr).not.toBe('')
    const by = Object.fromEntries((JSON.parse(r.stdout) as { sources: Source[] }).sources.map((s) => [path.basename(s.path), s]))
    expect(by['ok.z64']).toMatchObject({ status: 'indexed', kind: 'n64-rom', assets: 1 })
    expect(by['locked.z64']).toMatchObject({ status: 'error', kind: 'n64-rom', assets: 0 })
    expect(by['locked.z64']!.error).toContain(path.join(root, 'locked.z64'))
    expect(by['lockeddir']).toMatchObject({ status: 'error', assets: 0 })
    expect(r.stderr).toMatch(/locked\.z64/)
  })

  it('a broken or oversized gzip sample is an error naming the file, not a crash', async () => {
    const root = mk('gz')
    // gzip magic, then junk: the inflate fails.
    fs.writeFileSync(path.join(root, 'junk.z64.gz'), Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 0]))
    // A valid header whose trailer claims 4 GiB - 1 unpacked.
    fs.writeFileSync(path.join(root, 'huge.z64.gz'), Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]))
    fs.writeFileSync(path.join(root, 'fine.z64'), rom('FINE GAME', 'NFNE', 18))
    // Not ours: an unrelated archive and a broken one are passed over silently in a folder walk.
    fs.writeFileSync(path.join(root, 'backup.tar.gz'), gzipSync(new Uint8Array(300_000).fill(7)))
    fs.writeFileSync(path.join(root, 'broken.tar.gz'), Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff]))
    // A gzip'd image is recognised by content under its inner name.
    fs.writeFileSync(path.join(root, 'packed.bin.gz'), gzipSync(rom('PACKED GAME', 'NPKE', 19)))
    // A tiny gzip'd EMV pose: recognised by text near its end, so the whole (short) stream must unpack.
    const pose = `{${' '.repeat(3000)}"Pose": {"Head": {"_LocalEulerAngle": "vec:0.0,30.0,0.0"}}}`
    fs.writeFileSync(path.join(root, 'tiny_pose.json.gz'), gzipSync(new TextEncoder().encode(pose)))
    const r = await cli(['index', root, '--db', db('gz'), '--json'])
    expect(r.code).toBe(1)
    const by = Object.fromEntries((r.json() as { sources: Source[] }).sources.map((s) => [path.basename(s.path), s]))
    expect(Object.keys(by).sort()).toEqual(['fine.z64', 'huge.z64.gz', 'junk.z64.gz', 'packed.bin.gz', 'tiny_pose.json.gz'])
    expect(by['tiny_pose.json.gz']!.kind).toBe('emv-pose')
    expect(by['fine.z64']!.status).toBe('indexed')
    expect([by['packed.bin.gz']!.kind, by['packed.bin.gz']!.status]).toEqual(['n64-rom', 'indexed'])
    expect(by['junk.z64.gz']!.status).toBe('error')
    expect(by['junk.z64.gz']!.error).toContain(path.join(root, 'junk.z64.gz'))
    expect(by['huge.z64.gz']!.status).toBe('error')
    expect(by['huge.z64.gz']!.error).toMatch(/huge\.z64\.gz: gzip trailer ISIZE at 0x[0-9A-F]+: gzip member unpacks to 4294967295 bytes/)
  })

  it('reports a path it cannot read as a file (missing, a FIFO, unrecognised) without hanging', async () => {
    const root = mk('unreadable')
    const d = db('unreadable')
    fs.writeFileSync(path.join(root, 'ok.z64'), rom('OK GAME', 'NOKE', 9))
    const fifo = path.join(root, 'pipe.z64')
    execFileSync('mkfifo', [fifo])
    const txt = path.join(root, 'notes.txt')
    fs.writeFileSync(txt, 'hello')
    const missing = path.join(root, 'missing.z64')
    const r = await cli(['index', missing, fifo, txt, path.join(root, 'ok.z64'), '--db', d, '--json'])
    expect(r.code).toBe(1)
    const doc = r.json() as { sources: Source[]; assets: number }
    const by = Object.fromEntries(doc.sources.map((s) => [path.basename(s.path), s]))
    expect(by['ok.z64']!.status).toBe('indexed')
    for (const n of ['missing.z64', 'pipe.z64', 'notes.txt']) {
      expect(by[n]?.status, n).toBe('error')
      expect(by[n]!.error, n).toContain(n)
    }
    expect(doc.assets).toBe(1)
  })
})

describe('catalog upgrades', () => {
  it('a schema-2 catalog migrates and keeps ids growing past its old rows', async () => {
    const d = db('v2')
    const raw = new Database(d)
    for (const m of migrations.filter((m) => m.version <= 2)) raw.exec(m.sql)
    raw.pragma('user_version = 2')
    raw.prepare("INSERT INTO sources (id, path, size, mtime, hash, kind, status, metadata, indexed_at) VALUES (1, '/old/a.z64', 1, 1, 'h', 'n64-rom', 'indexed', '{}', 1)").run()
    raw.prepare("INSERT INTO assets (id, source_id, parent_id, ord, kind, name) VALUES (500, 1, NULL, 0, 'n64-rom', 'OLD ROW')").run()
    raw.close()
    const root = mk('v2files')
    fs.writeFileSync(path.join(root, 'n.z64'), rom('NEW ROW', 'NNRE', 20))
    expect((await cli(['index', root, '--db', d])).code).toBe(0)
    const c = openCatalog(d)
    expect(c.schemaVersion).toBe(migrations.at(-1)!.version)
    const rows = c.list().map((a) => [a.id, a.name])
    c.close()
    expect(rows).toContainEqual([500, 'OLD ROW'])
    expect(rows.find((r) => r[1] === 'NEW ROW (NNRE)')![0]).toBeGreaterThan(500)
  })
})

describe('index: paths as users give them', () => {
  it('a GF set member named alone indexes its set; a folder named twice is indexed once', async () => {
    const set = mk('named', 'myset')
    for (const f of fs.readdirSync(path.join(SAMPLES, 'gf-set'))) fs.copyFileSync(path.join(SAMPLES, 'gf-set', f), path.join(set, f))
    const r = await cli(['index', path.join(set, '1.bin'), set, path.join(set, '4.bin'), '--db', db('named'), '--json'])
    expect(r.code, r.stderr).toBe(0)
    const doc = r.json() as { sources: Source[]; assets: number }
    expect(doc.sources.map((s) => [s.path, s.kind, s.status])).toEqual([[set, 'gf-set', 'indexed']])
  })

  it('follows symbolic links inside folders, without looping on a cycle', async () => {
    const root = mk('links')
    const store = mk('links-store')
    fs.writeFileSync(path.join(store, 'real.z64'), rom('LINKED GAME', 'NLKE', 17))
    fs.symlinkSync(path.join(store, 'real.z64'), path.join(root, 'alias.z64'))
    fs.mkdirSync(path.join(root, 'sub'))
    fs.symlinkSync(root, path.join(root, 'sub', 'loop'))
    fs.symlinkSync(path.join(root, 'nowhere.z64'), path.join(root, 'dangling.z64'))
    const r = await cli(['index', root, '--db', db('links'), '--json'])
    expect(r.code, r.stderr).toBe(0)
    const doc = r.json() as { sources: Source[] }
    expect(doc.sources.map((s) => [path.relative(root, s.path), s.kind, s.status])).toEqual([['alias.z64', 'n64-rom', 'indexed']])
  })

  it('records what exists but cannot be read in the catalog too', async () => {
    const root = mk('recorded')
    const fifo = path.join(root, 'pipe.bin')
    execFileSync('mkfifo', [fifo])
    const d = db('recorded')
    const r = await cli(['index', fifo, path.join(root, 'gone.z64'), '--db', d, '--json'])
    expect(r.code).toBe(1)
    const c = openCatalog(d)
    expect(c.sources().map((s) => [s.path, s.status])).toEqual([[fifo, 'error']])
    expect(c.sourceByPath(fifo)!.error).toMatch(/pipe\.bin: not a regular file/)
    c.close()
  })
})

describe('index: N64 ROMs', () => {
  it('.z64, .v64 and .n64 of one image give the same identity, MD5 and assets', async () => {
    const root = mk('orders')
    const d = db('orders')
    const image = rom('SOME HOMEBREW', 'NHBE', 10, 0x8000)
    fs.writeFileSync(path.join(root, 'g.z64'), image)
    fs.writeFileSync(path.join(root, 'g.v64'), toV64(image))
    fs.writeFileSync(path.join(root, 'g.n64'), toN64(image))
    const r = await cli(['index', root, '--db', d, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const md5 = createHash('md5').update(image).digest('hex')
    const infos = []
    for (const ext of ['z64', 'v64', 'n64']) {
      const items = (await cli(['ls', '--db', d, '--source', path.join(root, `g.${ext}`), '--json'])).json() as Item[]
      expect(items.map((a) => [a.kind, a.name])).toEqual([['n64-rom', 'SOME HOMEBREW (NHBE)']])
      const info = (await cli(['info', String(items[0]!.id), '--db', d, '--json'])).json()
      expect(info.metadata.byteOrder).toBeUndefined()
      expect(info.sourceMetadata.byteOrder).toBe(ext)
      infos.push(info)
    }
    const identity = (i: { metadata: Record<string, unknown> }) => {
      const { byteOrder: _order, ...rest } = i.metadata
      return rest
    }
    expect(identity(infos[1])).toEqual(identity(infos[0]))
    expect(identity(infos[2])).toEqual(identity(infos[0]))
    expect(infos[0].metadata).toMatchObject({ title: 'SOME HOMEBREW', code: 'NHBE', md5, game: 'other' })
    // Searchable by header name and code.
    expect(((await cli(['find', 'homebrew', '--db', d, '--json'])).json() as Item[]).length).toBe(3)
    expect(((await cli(['find', 'NHBE', '--db', d, '--json'])).json() as Item[]).length).toBe(3)
  })

  it('the Snap sample in all three byte orders lists the same assets with the same MD5', async () => {
    const root = mk('snap-orders')
    const d = db('snap-orders')
    const gz = fs.readdirSync(SAMPLES).find((n) => n.startsWith('snap'))!
    const image = gunzipSync(new Uint8Array(fs.readFileSync(path.join(SAMPLES, gz))))
    fs.writeFileSync(path.join(root, 's.z64'), image)
    fs.writeFileSync(path.join(root, 's.v64'), toV64(image))
    fs.writeFileSync(path.join(root, 's.n64'), toN64(image))
    const doc = (await cli(['index', root, '--db', d, '--json'])).json() as { sources: Source[] }
    expect(doc.sources.map((s) => s.kind)).toEqual(['snap-rom', 'snap-rom', 'snap-rom'])
    const lists = []
    for (const ext of ['z64', 'v64', 'n64']) {
      const items = (await cli(['ls', '--db', d, '--source', path.join(root, `s.${ext}`), '--json'])).json() as Item[]
      lists.push(items.map((a) => [a.kind, a.name]))
      const game = (await cli(['info', String(items[0]!.id), '--db', d, '--json'])).json()
      expect(game.metadata.md5).toBe(createHash('md5').update(image).digest('hex'))
      expect(game.sourceMetadata.md5).toBe(game.metadata.md5)
    }
    expect(lists[1]).toEqual(lists[0])
    expect(lists[2]).toEqual(lists[0])
  })

  it('identifies the known US 1.0 images by MD5 (injected), whatever the header says', () => {
    const games = [snapRomId, stadiumRomId] // each game's identity, from its own folder
    const image = rom('NOT A POKEMON GAME', 'NXXE', 11)
    expect(md5Hex(image)).toBe(createHash('md5').update(image).digest('hex'))
    const snap = openRom(image, 'x.z64', '9b10b9d70dac67ae40953148fbe9cb96', games)
    expect(SNAP_US_MD5).toBe('9b10b9d70dac67ae40953148fbe9cb96')
    expect([snap.game, snap.verified]).toEqual(['snap', true])
    const stadium = openRom(toV64(image), 'x.v64', 'ed1378bc12115f71209a77844965ba50', games)
    expect(STADIUM_US_MD5).toBe('ed1378bc12115f71209a77844965ba50')
    expect([stadium.game, stadium.verified, stadium.byteOrder]).toEqual(['stadium', true, 'v64'])
    const other = openRom(toN64(image), 'x.n64', undefined, games)
    expect([other.game, other.verified, other.md5]).toEqual(['other', false, md5Hex(image)])
    expect(other.header).toMatchObject({ name: 'NOT A POKEMON GAME', code: 'NXXE' })
    // A header naming the game without the known MD5 is that game, unverified.
    const hack = openRom(rom('POKEMON SNAP', 'NPFE', 12), 'hack.z64', undefined, games)
    expect([hack.game, hack.verified]).toEqual(['snap', false])
    // The platform alone names no game: without identities every image is `other`.
    expect([openRom(image, 'x.z64', SNAP_US_MD5).game, openRom(rom('POKEMON SNAP', 'NPFE', 12), 'hack.z64').game]).toEqual(['other', 'other'])
  })
})

describe('ls, find, info', () => {
  let d: string
  beforeAll(async () => {
    d = db('query')
    const root = mk('query')
    fs.writeFileSync(path.join(root, 'zephyr.z64'), rom('ZEPHYR QUEST', 'NZQE', 13))
    fs.writeFileSync(path.join(root, 'beta.z64'), rom('BETA RACER', 'NBRE', 14))
    expect((await cli(['index', SAMPLES, root, '--db', d])).code).toBe(0)
  })

  it('ls prints exactly the keys of CLI.md, parents that exist, and filters by kind and source', async () => {
    const all = (await cli(['ls', '--db', d, '--json'])).json() as Item[]
    const ids = new Set(all.map((a) => a.id))
    for (const a of all) {
      expect(Object.keys(a).sort()).toEqual(LIST_KEYS)
      expect(typeof a.id).toBe('number')
      expect(path.isAbsolute(a.source)).toBe(true)
      if (a.parent !== null) expect(ids.has(a.parent)).toBe(true)
    }
    expect(all.some((a) => a.parent === null)).toBe(true)
    expect(all.some((a) => a.parent !== null)).toBe(true)
    const textures = (await cli(['ls', '--db', d, '--kind', 'gf-texture', '--json'])).json() as Item[]
    expect(textures.length).toBeGreaterThan(0)
    expect(textures.every((a) => a.kind === 'gf-texture' && a.source === path.join(SAMPLES, 'gf-set'))).toBe(true)
    expect(textures.length).toBe(all.filter((a) => a.kind === 'gf-texture').length)
    const motlist = path.join(SAMPLES, 're', 'sample.motlist.663')
    const bySource = (await cli(['ls', '--db', d, '--source', motlist, '--json'])).json() as Item[]
    expect(bySource.length).toBeGreaterThan(1)
    expect(bySource.every((a) => a.source === motlist)).toBe(true)
    // A relative --source means the same file.
    const rel = path.relative(process.cwd(), motlist)
    expect(((await cli(['ls', '--db', d, '--source', rel, '--json'])).json() as Item[]).map((a) => a.id)).toEqual(bySource.map((a) => a.id))
    const both = (await cli(['ls', '--db', d, '--source', motlist, '--kind', 're-motion', '--json'])).json() as Item[]
    expect(both.length).toBe(bySource.filter((a) => a.kind === 're-motion').length)
    expect((await cli(['ls', '--db', d, '--kind', 'no-such-kind', '--json'])).json()).toEqual([])
    // A folder holding sources lists what is under it (and nothing from a sibling with a longer name).
    const underRe = (await cli(['ls', '--db', d, '--source', path.join(SAMPLES, 're'), '--json'])).json() as Item[]
    expect(underRe.length).toBe(all.filter((a) => a.source.startsWith(path.join(SAMPLES, 're') + path.sep)).length)
    expect(new Set(underRe.map((a) => path.basename(a.source)))).toEqual(new Set(fs.readdirSync(path.join(SAMPLES, 're'))))
    expect((await cli(['ls', '--db', d, '--source', path.join(SAMPLES, 'r'), '--json'])).json()).toEqual([])
    expect((await cli(['ls', '--db', d, '--source', path.join(tmp, 'nothing-here'), '--json'])).json()).toEqual([])
  })

  it('find searches names and tags by prefix and prints the ls shape', async () => {
    const byPrefix = (await cli(['find', 'zep', '--db', d, '--json'])).json() as Item[]
    expect(byPrefix.map((a) => a.name)).toEqual(['ZEPHYR QUEST (NZQE)'])
    expect(Object.keys(byPrefix[0]!).sort()).toEqual(LIST_KEYS)
    expect(((await cli(['find', 'ZEPHYR', 'que', '--db', d, '--json'])).json() as Item[]).length).toBe(1)
    expect((await cli(['find', 'zephyr racer', '--db', d, '--json'])).json()).toEqual([])
    // A tag: gf textures are tagged with their format, which is not in their names.
    const all = (await cli(['ls', '--db', d, '--kind', 'gf-texture', '--json'])).json() as Item[]
    const etc = (await cli(['find', 'etc1', '--db', d, '--json'])).json() as Item[]
    expect(etc.length).toBeGreaterThan(0)
    expect(etc.every((a) => !/etc1/i.test(a.name))).toBe(true)
    expect(etc.every((a) => all.some((t) => t.id === a.id))).toBe(true)
    // Case and accents do not matter.
    expect(((await cli(['find', 'POKEMON', '--db', d, '--json'])).json() as Item[]).some((a) => a.name.startsWith('Pokémon Snap'))).toBe(true)
  })

  it('find survives any characters a user may type', async () => {
    for (const q of ['"', "'", '*', '(', ')', 'a"b', 'NEAR(x y)', 'AND', 'OR', 'NOT', 'a:b', '^zephyr', 'zephyr*', '-', '{}', '\\', '%', '_', '[0]', 'ポケモン', '😀', '   ', '\u0000']) {
      const r = await cli(['find', '--db', d, '--json', '--', q])
      expect(r.code, `${JSON.stringify(q)}: ${r.stderr}`).toBe(0)
      expect(Array.isArray(r.json()), q).toBe(true)
    }
    expect(((await cli(['find', '--db', d, '--json', '--', '^zephyr'])).json() as Item[]).length).toBe(1)
    // After `--` everything is the query, even words that look like options.
    for (const q of ['--help', '-h', '--json', '--version']) {
      const r = await cli(['find', '--db', d, '--json', '--', q])
      expect(r.code, q).toBe(0)
      expect(Array.isArray(r.json()), q).toBe(true)
    }
    expect(((await cli(['find', '--db', d, '--json', '--', '"zephyr'])).json() as Item[]).length).toBe(1)
  })

  it('info shows one asset with its metadata', async () => {
    const tex = ((await cli(['ls', '--db', d, '--kind', 'gf-texture', '--json'])).json() as Item[])[0]!
    const r = await cli(['info', String(tex.id), '--db', d, '--json'])
    expect(r.code).toBe(0)
    const doc = r.json()
    expect(doc).toMatchObject({ id: tex.id, kind: 'gf-texture', name: tex.name, source: tex.source, parent: tex.parent })
    expect(doc.metadata).toMatchObject({ width: expect.any(Number), height: expect.any(Number), format: expect.any(String) })
    const human = await cli(['info', String(tex.id), '--db', d])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(tex.name)
    expect(() => JSON.parse(human.stdout)).toThrow()
    expect((await cli(['info', '987654', '--db', d, '--json'])).code).toBe(1)
    expect((await cli(['info', '987654', '--db', d, '--json'])).stdout).toBe('')
    expect((await cli(['info', 'abc', '--db', d])).code).toBe(2)
    expect((await cli(['info', '1', '2', '--db', d])).code).toBe(2)
  })
})

describe('command line conventions', () => {
  it('--help works on every command (exit 0, usage on stdout)', async () => {
    const top = await cli(['--help'])
    expect(top.code).toBe(0)
    for (const c of await allCommands()) {
      const r = await cli([...c.name.split(' '), '--help'])
      expect(r.code, c.name).toBe(0)
      expect(r.stdout, c.name).toContain(`Usage: modbench ${c.name}`)
      expect(top.stdout, c.name).toContain(c.name)
    }
  })

  it('--help on a command group lists its commands (exit 0); the bare group is a usage error', async () => {
    const commands = await allCommands()
    const groups = [...new Set(commands.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]!))]
    expect(groups.length).toBeGreaterThan(0)
    for (const g of groups) {
      const r = await cli([g, '--help'])
      expect(r.code, g).toBe(0)
      for (const c of commands.filter((c) => c.name.startsWith(`${g} `))) expect(r.stdout, g).toContain(`modbench ${c.usage}`)
      expect((await cli([g])).code, g).toBe(2)
    }
  })

  it('usage errors exit 2', async () => {
    const d = db('usage')
    const cases = [
      ['index'],
      ['index', '--db'],
      ['index', tmp, '--db', d, '--frobnicate'],
      ['ls', 'extra', '--db', d],
      ['ls', '--kind', '--db', d],
      ['find', '--db', d],
      ['info', '--db', d],
      ['info', '-3', '--db', d],
      ['serve', '--port', 'abc', '--db', d],
      ['serve', '--port', '70000', '--db', d],
      ['nonsense'],
      [],
    ]
    for (const argv of cases) {
      const r = await cli(argv)
      expect(r.code, argv.join(' ')).toBe(2)
    }
  })

  it('the spawned binary: exit codes 0/1/2 and exactly one JSON document on stdout', async () => {
    const d = db('spawned')
    const root = mk('spawned')
    fs.writeFileSync(path.join(root, 'ok.z64'), rom('SPAWN GAME', 'NSPE', 15))
    const ok = await spawnCli(['index', root, '--db', d, '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout).assets).toBe(1)
    for (const argv of [['ls'], ['find', 'spawn'], ['info', '1']]) {
      const r = await spawnCli([...argv, '--db', d, '--json'])
      expect(r.code, argv.join(' ')).toBe(0)
      expect(() => JSON.parse(r.stdout), argv.join(' ')).not.toThrow()
      expect(r.stdout.trim().startsWith('[') || r.stdout.trim().startsWith('{')).toBe(true)
    }
    fs.writeFileSync(path.join(root, 'bad.z64'), 'junk')
    const bad = await spawnCli(['index', root, '--db', d, '--json'])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout).sources.length).toBe(2)
    expect(bad.stderr).toMatch(/bad\.z64/)
    expect((await spawnCli(['ls', '--db', d, '--bogus'])).code).toBe(2)
    expect((await spawnCli(['--help'])).code).toBe(0)
    expect((await spawnCli(['info', '424242', '--db', d, '--json'])).code).toBe(1)
  })
})

describe('file access of the services (both transports)', () => {
  it('reads stay inside what was indexed or chosen; writes may add a file beside it, nowhere else', () => {
    const base = mk('access')
    const set = mk('access', 'home', 'set')
    fs.writeFileSync(path.join(set, '0.bin'), 'x')
    fs.writeFileSync(path.join(base, 'home', 'diary.txt'), 'private')
    const outside = mk('access', 'outside')
    fs.symlinkSync(outside, path.join(set, 'escape'))
    const c = openCatalog(db('access'))
    const svc = new Services(c)
    try {
      c.replaceSource({ path: set, size: 1, mtime: 1, hash: 'h', kind: 'gf-set' }, [])
      expect(svc.allowPath(path.join(set, '0.bin'), 'read')).toBe(path.join(set, '0.bin'))
      expect(() => svc.allowPath(path.join(base, 'home', 'diary.txt'), 'read')).toThrow(AccessDenied)
      // A new folder beside the set (a repacked copy) may be written; deeper elsewhere may not.
      expect(svc.allowPath(path.join(base, 'home', 'set-repacked'), 'write')).toBe(path.join(base, 'home', 'set-repacked'))
      expect(svc.allowPath(path.join(set, 'new.bin'), 'write')).toBe(path.join(set, 'new.bin'))
      expect(() => svc.allowPath(path.join(base, 'home', 'diary.txt'), 'write')).toThrow(AccessDenied)
      expect(() => svc.allowPath(path.join(base, 'home', 'diary.txt', 'x'), 'write')).toThrow(AccessDenied)
      expect(() => svc.allowPath(path.join(base, 'home', 'docs', 'evil.txt'), 'write')).toThrow(AccessDenied)
      expect(() => svc.allowPath(path.join(base, 'x.txt'), 'write')).toThrow(AccessDenied)
      // A link inside the set leads nowhere it points to, for reads or writes.
      expect(() => svc.allowPath(path.join(set, 'escape', 'new.txt'), 'write')).toThrow(AccessDenied)
      expect(() => svc.allowPath(path.join(set, 'escape'), 'read')).toThrow(AccessDenied)
    } finally {
      svc.dispose()
      c.close()
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Browser mode

function request(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array; host?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: opts.host ?? '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

describe('serve (browser mode)', () => {
  let server: RunningServer
  let staticDir: string
  let served: string
  const api = (channel: string, body: unknown, token?: string) =>
    request(server.port, { method: 'POST', path: `/api/${channel}`, headers: { 'content-type': 'application/json', ...(token ? { 'x-modbench-token': token } : {}) }, body: JSON.stringify(body) })

  beforeAll(async () => {
    const base = mk('serve')
    staticDir = mk('serve', 'static')
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>modbench</title>')
    fs.writeFileSync(path.join(base, 'secret.txt'), 'SECRET-NOT-SERVED')
    served = mk('serve', 'indexed')
    fs.writeFileSync(path.join(served, 'r.z64'), rom('SERVED GAME', 'NSVE', 16))
    // An indexed set folder holding a link that points outside everything indexed.
    const set = mk('serve', 'indexed', 'set')
    for (const f of fs.readdirSync(path.join(SAMPLES, 'gf-set'))) fs.copyFileSync(path.join(SAMPLES, 'gf-set', f), path.join(set, f))
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(set, 'link.txt'))
    const d = db('serve')
    expect((await cli(['index', served, path.join(SAMPLES, 'gf-set'), '--db', d])).code).toBe(0)
    server = await startServer({ dbPath: d, port: 0, staticDir })
  })
  afterAll(async () => server?.close())

  it('binds 127.0.0.1 only and needs the token on every API route', async () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1')
    const other = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)
    if (other) {
      const refused = await new Promise<boolean>((resolve) => {
        const s = net.connect({ host: other.address, port: server.port })
        s.once('connect', () => (s.destroy(), resolve(false)))
        s.once('error', () => resolve(true))
      })
      expect(refused).toBe(true)
    }
    for (const route of ['catalog:sources', 'catalog:search', 'index:start', 'fs:grant', 'gf:texture', 'no:such-channel']) {
      expect((await api(route, {})).status, route).toBe(401)
      expect((await api(route, {}, 'wrong-token')).status, route).toBe(401)
    }
    const file = encodeURIComponent(path.join(served, 'r.z64'))
    for (const p of [`/api/file?path=${file}`, '/api/events', '/api/', '/api/catalog:sources']) {
      expect((await request(server.port, { path: p })).status, p).toBe(401)
      expect((await request(server.port, { path: `${p}${p.includes('?') ? '&' : '?'}token=nope` })).status, p).toBe(401)
    }
    const ok = await api('catalog:sources', {}, server.token)
    expect(ok.status).toBe(200)
    const sources = decodeEnvelope<{ path: string }[]>(new Uint8Array(ok.body))
    expect(sources.map((s) => s.path)).toContain(path.join(served, 'r.z64'))
    expect((await api('%E0%A4%A', {}, server.token)).status).toBe(400)
    expect((await api('no:such-channel', {}, server.token)).status).toBe(404)
    expect((await api('catalog:search', { query: '"(*' }, server.token)).status).toBe(200)
    expect((await request(server.port, { method: 'POST', path: '/api/catalog:asset', headers: { 'x-modbench-token': server.token }, body: '{not json' })).status).toBe(422)
    // The token also works as a query parameter (the URL printed by serve carries it).
    expect((await request(server.port, { method: 'POST', path: `/api/catalog:sources?token=${server.token}`, body: '{}' })).status).toBe(200)
  })

  it('serves the renderer and refuses paths outside it', async () => {
    const index = await request(server.port, { path: '/' })
    expect(index.status).toBe(200)
    expect(index.body.toString()).toContain('<title>modbench</title>')
    expect(index.headers['content-security-policy']).toBeTruthy()
    for (const p of ['/../secret.txt', '/../../../../etc/passwd', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/..%2F..%2F..%2Fetc%2Fpasswd', '/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/..\\secret.txt', '/static/../../secret.txt', '/%00', '/%E0%A4%A']) {
      const r = await request(server.port, { path: p })
      expect(r.status, p).not.toBe(200)
      expect(r.body.toString(), p).not.toContain('SECRET-NOT-SERVED')
      expect(r.body.toString(), p).not.toContain('root:')
    }
  })

  it('/api/file serves indexed files only', async () => {
    const get = (p: string) => request(server.port, { path: `/api/file?path=${encodeURIComponent(p)}`, headers: { 'x-modbench-token': server.token } })
    const ok = await get(path.join(served, 'r.z64'))
    expect(ok.status).toBe(200)
    expect(new Uint8Array(ok.body)).toEqual(rom('SERVED GAME', 'NSVE', 16))
    expect((await get(path.join(SAMPLES, 'gf-set', '1.bin'))).status).toBe(200)
    const member = await get(path.join(served, 'set', '1.bin'))
    expect(member.status).toBe(200)
    expect(new Uint8Array(member.body)).toEqual(new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'gf-set', '1.bin'))))
    for (const p of ['/etc/passwd', '../../etc/passwd', path.join(served, '..', 'secret.txt'), path.join(served, 'set', 'link.txt'), path.join(served, 'set', '..', '..', 'secret.txt'), path.join(served, 'set'), `${served}-x/r.z64`, path.join(SAMPLES, 're', 'sample.motlist.663'), repoRoot]) {
      const r = await get(p)
      expect(r.status, p).toBeGreaterThanOrEqual(400)
      expect(r.body.toString(), p).not.toContain('SECRET-NOT-SERVED')
      expect(r.body.toString(), p).not.toContain('root:')
    }
  })

  it('typed arrays come back as binary, not as JSON number lists', async () => {
    const set = path.join(SAMPLES, 'gf-set')
    const r = await api('gf:texture', { set, file: '1.bin', entry: 0 }, server.token)
    expect(r.status, r.body.toString().slice(0, 300)).toBe(200)
    expect(r.headers['content-type']).toBe('application/x-modbench')
    const bytes = new Uint8Array(r.body)
    expect(isEnvelope(bytes)).toBe(true)
    const jsonLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true)
    const json = new TextDecoder().decode(bytes.subarray(8, 8 + jsonLen))
    expect(json).toContain('"$ta":"Uint8Array"')
    expect(json.length).toBeLessThan(2000)
    const reply = decodeEnvelope<{ info: { width: number; height: number }; rgba: Uint8Array }>(bytes)
    expect(reply.rgba).toBeInstanceOf(Uint8Array)
    expect(reply.rgba.byteLength).toBe(reply.info.width * reply.info.height * 4)
    expect(bytes.byteLength).toBeGreaterThanOrEqual(reply.rgba.byteLength)
  })

  it('the spawned `modbench serve` prints the URL with its token on the first stdout line', async () => {
    const d = db('serve-spawned')
    const child = spawn(process.execPath, [cliBin, 'serve', '--db', d, '--port', '0', '--no-samples'], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let out = ''
        let err = ''
        const timer = setTimeout(() => reject(new Error(`no URL after 120 s: ${err}`)), 120_000)
        child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s))
        child.stdout!.setEncoding('utf8').on('data', (s: string) => {
          out += s
          if (out.includes('\n')) {
            clearTimeout(timer)
            resolve(out.split('\n')[0]!)
          }
        })
        child.on('close', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
      })
      const u = new URL(first)
      expect(u.hostname).toBe('127.0.0.1')
      const token = u.searchParams.get('token')!
      expect(token).toMatch(/^[0-9a-f]{32,}$/)
      const port = Number(u.port)
      expect((await request(port, { method: 'POST', path: '/api/catalog:sources', body: '{}' })).status).toBe(401)
      expect((await request(port, { method: 'POST', path: '/api/catalog:sources', headers: { 'x-modbench-token': token }, body: '{}' })).status).toBe(200)
    } finally {
      const closed = new Promise((r) => child.once('close', r))
      child.kill('SIGTERM')
      await closed
    }
  })
})
