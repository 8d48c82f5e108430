#!/usr/bin/env node
// The `modbench` command: runs the TypeScript CLI directly through tsx, so it works right after
// `npm ci` with no build step.
import { register } from 'tsx/esm/api'
import { fileURLToPath } from 'node:url'
import * as path from 'node:path'

const here = path.dirname(fileURLToPath(import.meta.url))
register({ tsconfig: path.join(here, '..', 'tsconfig.json') })
process.env.MODBENCH_CLI = '1'
await import(path.join(here, '..', 'src-main', 'cli', 'main.ts'))
