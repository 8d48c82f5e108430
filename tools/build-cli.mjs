#!/usr/bin/env node
// Builds the `modbench` command into out/cli/ with esbuild: out/cli/main.mjs (the entry), one
// chunk per lazily imported module (so a command loads only what it uses), the worker scripts
// beside them (out/cli/etc1-worker.mjs, export-worker.mjs), meta.json (esbuild's metafile: which module imports
// which) and inputs.json (the sources and their sizes/mtimes, for the bin shim's staleness check).
// Dependencies stay outside the bundle (`packages: 'external'`): better-sqlite3 is native, and
// a library imported only inside a command's run is loaded only when that command runs.
//
// Files are written temp + rename, chunks first and main.mjs last, and chunks of an older build
// are left in place: a CLI already running from out/cli (the app's index job, a test) can still
// import its lazy chunks while another process rebuilds. `--clean` empties out/cli first.
//
// out/cli/ sits two folders below the root like src-main/<area>/: code that finds the repo from
// `import.meta.dirname` ('..', '..': samples, the renderer build, bin/) works unchanged in the bundle.
//
// Usage: node tools/build-cli.mjs [--outdir DIR] [--clean] [--quiet]
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Worker scripts started with `new Worker(file)`: built beside the bundle under these names. */
export const WORKERS = { 'etc1-worker': 'src-main/domains/gf/etc1-worker.ts', 'export-worker': 'src-main/domains/gf/export-worker.ts' }

/** Builds the CLI into `outdir` (default out/cli). Returns the metafile. */
export async function buildCli({ outdir = path.join(root, 'out', 'cli'), clean = false } = {}) {
  const esbuild = await import('esbuild')
  const entryPoints = { main: path.join(root, 'src-main/cli/main.ts') }
  for (const [name, file] of Object.entries(WORKERS)) entryPoints[name] = path.join(root, file)
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'silent',
    tsconfig: path.join(root, 'tsconfig.json'),
  })
  if (clean) fs.rmSync(outdir, { recursive: true, force: true })
  fs.mkdirSync(outdir, { recursive: true })
  // chunks first, then the workers, main.mjs last: whoever sees the new main.mjs finds its chunks
  const rank = (f) => (path.basename(f) === 'main.mjs' ? 2 : Object.keys(entryPoints).some((n) => path.basename(f).startsWith(`${n}.mjs`)) ? 1 : 0)
  const files = [...result.outputFiles].sort((x, y) => rank(x.path) - rank(y.path))
  const inputs = {}
  for (const f of Object.keys(result.metafile.inputs)) {
    const st = fs.statSync(path.join(root, f))
    inputs[f] = [st.size, st.mtimeMs]
  }
  const extra = [
    { path: path.join(outdir, 'meta.json'), contents: Buffer.from(JSON.stringify(result.metafile)) },
  ]
  for (const f of [...extra, ...files]) writeAtomic(f.path, f.contents)
  // the stamp last: a build is complete once inputs.json names its sources
  writeAtomic(path.join(outdir, 'inputs.json'), Buffer.from(JSON.stringify({ inputs })))
  return result.metafile
}

function writeAtomic(file, bytes) {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  fs.writeFileSync(tmp, bytes)
  fs.renameSync(tmp, file)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--outdir')
  const outdir = at >= 0 ? path.resolve(args[at + 1]) : undefined
  const t0 = performance.now()
  try {
    const meta = await buildCli({ outdir, clean: args.includes('--clean') })
    if (!args.includes('--quiet')) {
      const n = Object.keys(meta.outputs).filter((f) => f.endsWith('.mjs')).length
      process.stdout.write(`built ${path.relative(process.cwd(), outdir ?? path.join(root, 'out', 'cli')) || '.'}: ${n} files in ${Math.round(performance.now() - t0)} ms\n`)
    }
  } catch (e) {
    process.stderr.write(`build-cli: ${e.message ?? e}\n`)
    process.exitCode = 1
  }
}
