/**
 * The built CLI (tools/build-cli.mjs → out/cli): it runs as plain JavaScript, gives the same
 * output as the sources, `--help` loads none of the heavy libraries (checked with a module-load
 * hook on the real process, and a positive control that the hook does see them), and the ETC1
 * and batch export workers are built beside the bundle and work without tsx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { Worker } from 'node:worker_threads'
import { buildCli, type Metafile } from '../../../../tools/build-cli.mjs'
import { cli, cliBin, repoRoot } from '../../../helpers/cli'
import { reencodeTexture } from '../../../../src-shared/formats/gf/replace'
import { parseGfSet } from '../../../../src-shared/formats/gf/gf-set'
import { exportSetGlb } from '../../../../src-main/domains/gf/export-set'
import { buildSyntheticSet } from '../../../fixtures/gf/build-set'

const HEAVY = ['@gltf-transform/', 'better-sqlite3', 'pngjs', 'fast-png']
const sample = path.join(repoRoot, 'resources', 'samples', 're', 'sample.motlist.663')
let dir: string
let outdir: string
let meta: Metafile

/** A loader hook that appends every resolved module URL to $MB_LOAD_LOG (Node 20: `module.register`). */
const HOOK = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs'
export async function resolve(spec, ctx, next) {
  const r = await next(spec, ctx)
  appendFileSync(process.env.MB_LOAD_LOG, r.url + '\\\\n')
  return r
}\`))
`

function runBuilt(args: string[], log?: string) {
  const hook = log ? ['--import', path.join(dir, 'hook.mjs')] : []
  const env = { ...process.env, MB_LOAD_LOG: log ?? '', MODBENCH_CLI: '' }
  const r = spawnSync(process.execPath, [...hook, path.join(outdir, 'main.mjs'), ...args], { env, encoding: 'utf8', cwd: dir })
  const loaded = log && fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, loaded }
}

const heavyIn = (urls: string[]) => HEAVY.filter((h) => urls.some((u) => u.includes(`/node_modules/${h}`)))

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bundle-'))
  // inside the repo: the bundle finds its dependencies in node_modules as out/cli does
  outdir = path.join(repoRoot, 'out', `.test-cli-${process.pid}`)
  meta = await buildCli({ outdir })
  fs.writeFileSync(path.join(dir, 'hook.mjs'), HOOK)
}, 120_000)

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(outdir, { recursive: true, force: true })
})

describe('the built CLI', () => {
  it('is plain JavaScript with its entry, its worker and a stamp of its sources', () => {
    for (const f of ['main.mjs', 'etc1-worker.mjs', 'export-worker.mjs', 'meta.json', 'inputs.json']) expect(fs.existsSync(path.join(outdir, f)), f).toBe(true)
    const stamp = JSON.parse(fs.readFileSync(path.join(outdir, 'inputs.json'), 'utf8')) as { inputs: Record<string, [number, number]> }
    expect(Object.keys(stamp.inputs)).toContain('src-main/cli/main.ts')
    expect(Object.keys(stamp.inputs).every((f) => !f.includes('node_modules'))).toBe(true)
    // every command module is its own chunk, imported dynamically by the entry's code
    expect(Object.values(meta.outputs).some((o) => o.imports.some((i) => i.kind === 'dynamic-import'))).toBe(true)
  })

  it('prints what the sources print (re info --json on the sample)', async () => {
    const built = runBuilt(['re', 'info', sample, '--json'])
    const src = await cli(['re', 'info', sample, '--json'])
    expect(built.code).toBe(0)
    expect(built.stdout).toBe(src.stdout)
    expect(JSON.parse(built.stdout).motions.length).toBe(3)
  })

  it('--help loads none of glTF-Transform, SQLite or the PNG libraries, export neither glTF-Transform nor a PNG library; ls (the control) loads SQLite', () => {
    const help = runBuilt(['--help'], path.join(dir, 'help.log'))
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^modbench \d/)
    expect(help.loaded.length).toBeGreaterThan(5) // the hook saw the bundle's own chunks
    expect(heavyIn(help.loaded)).toEqual([])
    const info = runBuilt(['re', 'info', sample], path.join(dir, 'info.log'))
    expect(info.code).toBe(0)
    expect(heavyIn(info.loaded)).toEqual([])
    const exp = runBuilt(['export', 'demo', '--out', path.join(dir, 'demo.glb')], path.join(dir, 'export.log'))
    expect(exp.code, exp.stderr).toBe(0)
    // the glb writer is our own (src-shared/export/glb.ts), its PNGs written with Node's zlib
    // (src-main/node/png-codec.ts): export loads neither glTF-Transform nor a PNG library
    expect(heavyIn(exp.loaded).filter((h) => h !== 'better-sqlite3')).toEqual([])
    const ls = runBuilt(['ls', '--db', path.join(dir, 'c.sqlite')], path.join(dir, 'ls.log'))
    expect(ls.code, ls.stderr).toBe(0)
    expect(heavyIn(ls.loaded)).toContain('better-sqlite3')
  })

  it('runs the ETC1 worker built beside it as plain JavaScript (no tsx): same bytes as the encoder inline', async () => {
    const w = 16, h = 16
    const entry = new Uint8Array(0x80 + (w * h) / 2)
    const v = new DataView(entry.buffer)
    v.setUint32(0, 0x15041213, true)
    v.setUint32(0x18, (w * h) / 2, true)
    v.setUint16(0x68, w, true)
    v.setUint16(0x6a, h, true)
    v.setUint16(0x6c, 0x2a, true)
    v.setUint16(0x6e, 1, true)
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37) & 255)
    const worker = new Worker(path.join(outdir, 'etc1-worker.mjs'), { execArgv: [] })
    try {
      const reply = await new Promise<{ bytes?: Uint8Array; error?: string }>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        // a range of tile rows of the level, as etc1-pool.ts sends it (the image in a SharedArrayBuffer)
        const shared = new Uint8Array(new SharedArrayBuffer(rgba.byteLength))
        shared.set(rgba)
        worker.postMessage({ id: 1, rgba: shared, width: w, height: h, withAlpha: false, effort: 'normal', from: 0, to: h / 8 })
      })
      expect(reply.error).toBeUndefined()
      const whole = reencodeTexture(entry, rgba, w, h).bytes
      expect(Buffer.from(reply.bytes!).equals(Buffer.from(whole.subarray(0x80)))).toBe(true)
    } finally {
      await worker.terminate()
    }
  })

  it('runs the batch export worker built beside it as plain JavaScript: the glb of the set exported inline, byte for byte', async () => {
    const files = buildSyntheticSet(1).files
    const inline = (await exportSetGlb(parseGfSet(files), { name: 'a/0001' })).glb
    const worker = new Worker(path.join(outdir, 'export-worker.mjs'), { execArgv: [] })
    try {
      const reply = await new Promise<{ glb?: Uint8Array; error?: string; models?: number }>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        worker.postMessage({ id: 1, batch: 1, name: 'a/0001', files }) // a job as export-pool.ts sends it
      })
      expect(reply.error).toBeUndefined()
      expect(reply.models).toBe(2)
      expect(Buffer.from(reply.glb!).equals(Buffer.from(inline))).toBe(true)
    } finally {
      await worker.terminate()
    }
  })

  it('bin/modbench.mjs runs out/cli/main.mjs (building it when a source changed), tsx only with MODBENCH_DEV=1', () => {
    const run = (env: Record<string, string>, log: string) => {
      const r = spawnSync(process.execPath, ['--import', path.join(dir, 'hook.mjs'), cliBin, '--version'], { env: { ...process.env, MODBENCH_DEV: '', ...env, MB_LOAD_LOG: log }, encoding: 'utf8' })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
      return fs.readFileSync(log, 'utf8')
    }
    // a source newer than the build (only its mtime moves): the shim rebuilds before running
    const touched = path.join(repoRoot, 'src-main', 'cli', 'progress.ts')
    const when = new Date(Math.floor(Date.now() / 1000) * 1000)
    fs.utimesSync(touched, when, when)
    const built = run({}, path.join(dir, 'bin.log'))
    const stamp = JSON.parse(fs.readFileSync(path.join(repoRoot, 'out', 'cli', 'inputs.json'), 'utf8')) as { inputs: Record<string, [number, number]> }
    expect(stamp.inputs['src-main/cli/progress.ts']![1]).toBe(fs.statSync(touched).mtimeMs)
    expect(built).toContain(`${path.sep}out${path.sep}cli${path.sep}main.mjs`)
    expect(built).not.toMatch(/node_modules\/tsx\//)
    const dev = run({ MODBENCH_DEV: '1' }, path.join(dir, 'dev.log'))
    expect(dev).toMatch(/node_modules\/tsx\//)
    expect(dev).not.toContain(`${path.sep}out${path.sep}cli${path.sep}main.mjs`)
  })

  it('a reader that goes away (`modbench … | head`) ends it quietly, not with an EPIPE stack', async () => {
    const child = spawn(process.execPath, [path.join(outdir, 'main.mjs'), 're', 'info', sample, '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MODBENCH_CLI: '' } })
    child.stdout.destroy() // our end of its stdout closes before it writes
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(err).toBe('')
    expect(code).toBe(0)
  })
})
