import { afterAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import { workerScript } from '../../../../src-main/node/worker-script'
import { repoRoot } from '../../../helpers/cli'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-worker-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const url = (...p: string[]) => pathToFileURL(path.join(dir, ...p)).href

describe('workerScript', () => {
  it('built code: the built worker beside it, or one folder up (a chunks/ folder)', () => {
    fs.mkdirSync(path.join(dir, 'a', 'chunks'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'a', 'w.mjs'), '')
    expect(workerScript('w', url('a', 'chunk-X.mjs'))).toEqual({ file: path.join(dir, 'a', 'w.mjs') })
    expect(workerScript('w', url('a', 'chunks', 'index-Y.js'))).toEqual({ file: path.join(dir, 'a', 'w.mjs') })
  })

  it('built code without its worker: an error naming where it looked, never a silent fallback', () => {
    fs.mkdirSync(path.join(dir, 'b'), { recursive: true })
    expect(() => workerScript('etc1-worker', url('b', 'main.mjs'))).toThrow(/etc1-worker worker is missing.*b[\\/]etc1-worker\.mjs.*npm run build/)
  })

  it('the sources: the tsx bootstrap with the .ts module and the repo tsconfig', () => {
    const gf = path.join(repoRoot, 'src-main', 'domains', 'gf')
    const s = workerScript('etc1-worker', pathToFileURL(path.join(gf, 'reencode-worker.ts')).href)
    expect(s.file).toBe(path.join(gf, 'etc1-worker.mjs'))
    expect(s.workerData).toEqual({ entry: pathToFileURL(path.join(gf, 'etc1-worker.ts')).href, tsconfig: path.join(repoRoot, 'tsconfig.json') })
    expect(() => workerScript('no-such-worker', pathToFileURL(path.join(gf, 'x.ts')).href)).toThrow(/no-such-worker worker is missing/)
  })
})
