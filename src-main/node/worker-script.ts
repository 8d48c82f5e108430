/**
 * Where a worker thread's script is, for the code that starts it. Built code (the CLI bundle in
 * out/cli/, the Electron main in out/main/) has the worker built beside it as plain JavaScript
 * (`NAME.mjs` or `NAME.js`, tools/build-cli.mjs and electron.vite.config.ts put it there) and starts
 * it as is. Running from the TypeScript sources (tsx, vitest), the worker is `NAME.ts` beside the
 * caller, started through the tsx bootstrap `NAME.mjs` there (loader hooks of the main thread are
 * not inherited by workers on Node 20). A missing worker is an error naming where it was looked
 * for: work meant for a worker never silently runs on the main thread instead.
 */
import { existsSync } from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export interface WorkerScript {
  /** The file to give `new Worker(…)`. */
  file: string
  /** For the tsx bootstrap: the TypeScript module to load and the tsconfig; absent for a built worker. */
  workerData?: { entry: string; tsconfig: string }
}

/** `name` (e.g. `etc1-worker`) for the module at `callerUrl` (its `import.meta.url`). */
export function workerScript(name: string, callerUrl: string): WorkerScript {
  const here = path.dirname(fileURLToPath(callerUrl))
  if (/\.[cm]?ts$/.test(callerUrl)) {
    const boot = path.join(here, `${name}.mjs`)
    const entry = path.join(here, `${name}.ts`)
    for (const f of [boot, entry]) if (!existsSync(f)) throw new Error(`the ${name} worker is missing: no ${f}`)
    return { file: boot, workerData: { entry: pathToFileURL(entry).href, tsconfig: findTsconfig(here) } }
  }
  // beside the code, or one folder up (a bundler may put the caller in a chunks/ folder)
  const tried: string[] = []
  for (const dir of [here, path.dirname(here)]) {
    for (const ext of ['.mjs', '.js']) {
      const f = path.join(dir, name + ext)
      if (existsSync(f)) return { file: f }
      tried.push(f)
    }
  }
  throw new Error(`the ${name} worker is missing beside the built code (looked for ${tried.join(', ')}); rebuild with \`npm run build\``)
}

function findTsconfig(from: string): string {
  for (let d = from; ; d = path.dirname(d)) {
    const f = path.join(d, 'tsconfig.json')
    if (existsSync(f)) return f
    if (path.dirname(d) === d) throw new Error(`no tsconfig.json above ${from}`)
  }
}
