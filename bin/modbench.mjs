#!/usr/bin/env node
// The `modbench` command. It runs the bundled build, out/cli/main.mjs (tools/build-cli.mjs; made
// by `npm run build` or `npm run build:cli`). Where that build is missing, or older than the
// sources it was made from (size or mtime of any of them changed; the list is out/cli/inputs.json),
// it is built first (esbuild, about a second) and then run. MODBENCH_DEV=1 runs the TypeScript
// sources through tsx instead: the development path, no build, but a slower start. See
// docs/DECISIONS.md ("The built CLI").
import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as path from 'node:path'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const outDir = path.join(root, 'out', 'cli')
const entry = path.join(outDir, 'main.mjs')
const sources = path.join(root, 'src-main', 'cli', 'main.ts')

/** Why the bundle cannot be run as it is (missing, or a source changed since it was built), or null. */
function staleness() {
  if (!existsSync(entry)) return 'missing'
  let stamp
  try {
    stamp = JSON.parse(readFileSync(path.join(outDir, 'inputs.json'), 'utf8'))
  } catch {
    return 'incomplete'
  }
  if (!existsSync(sources)) return null // an installed build without its sources: nothing to compare
  for (const [file, [size, mtime]] of Object.entries(stamp.inputs)) {
    let st
    try {
      st = statSync(path.join(root, file))
    } catch {
      return `${file} is gone`
    }
    if (st.size !== size || st.mtimeMs !== mtime) return `${file} changed`
  }
  return null
}

async function runSources(why) {
  if (why) process.stderr.write(`modbench: ${why}; running the sources through tsx\n`)
  const { register } = await import('tsx/esm/api')
  register({ tsconfig: path.join(root, 'tsconfig.json') })
  process.env.MODBENCH_CLI = '1'
  await import(pathToFileURL(sources).href)
}

if (process.env.MODBENCH_DEV === '1') await runSources()
else {
  let why = staleness()
  if (why && existsSync(sources)) {
    try {
      const { buildCli } = await import('../tools/build-cli.mjs')
      await buildCli({ outdir: outDir })
      why = null
    } catch (e) {
      why = `cannot build out/cli (${e?.message ?? e})`
    }
  }
  if (why) await runSources(why)
  else {
    process.env.MODBENCH_CLI = '1'
    await import(pathToFileURL(entry).href)
  }
}
