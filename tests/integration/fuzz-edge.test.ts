/**
 * Robustness: every reading command on degenerate inputs (empty file, one byte, a header's worth
 * of 0xFF, a folder where a file is expected, a file where a folder is expected). Each must exit 1
 * with an error naming the input (never a crash, never exit 2 for bad content) and write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { expectCliCase } from '../helpers/fuzz'
import { repoRoot } from '../helpers/cli'

const RE = path.join(repoRoot, 'resources', 'samples', 're')
let dir: string

const CONTENTS: [string, (p: string) => void][] = [
  ['empty', (p) => writeFileSync(p, new Uint8Array(0))],
  ['one byte', (p) => writeFileSync(p, new Uint8Array([0x80]))],
  ['0x100 bytes of 0xFF', (p) => writeFileSync(p, new Uint8Array(0x100).fill(0xff))],
  ['0x1000 zero bytes', (p) => writeFileSync(p, new Uint8Array(0x1000))],
  ['a folder', (p) => mkdirSync(p)],
]

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-edge-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('reading commands on degenerate inputs', () => {
  const fileCommands: { suffix: string; argv: (p: string, out: string) => string[] }[] = [
    { suffix: '.z64', argv: (p) => ['snap', 'stages', p, '--json'] },
    { suffix: '.z64', argv: (p) => ['snap', 'track', p, '--stage', 'beach', '--json'] },
    { suffix: '.z64', argv: (p, out) => ['snap', 'export', p, '--stage', 'cave', '--out', out] },
    { suffix: '.z64', argv: (p) => ['stadium', 'list', p, '--json'] },
    { suffix: '.z64', argv: (p, out) => ['stadium', 'export', p, '--out', out] },
    { suffix: '.motlist.663', argv: (p) => ['re', 'info', p, '--json'] },
    { suffix: '.mot.613', argv: (p) => ['re', 'sample', p, '--motion', '0', '--frame', '1', '--json'] },
    { suffix: '.motlist.663', argv: (p, out) => ['re', 'pose2motlist', '--template', p, '--pose', path.join(RE, 'sample_wave_pose.json'), '--out', out + '.motlist.663'] },
    { suffix: '.json', argv: (p, out) => ['re', 'pose2motlist', '--template', path.join(RE, 'sample.motlist.663'), '--pose', p, '--out', out + '.motlist.663'] },
  ]
  for (const [what, make] of CONTENTS) {
    it(`${what}: every file command exits 1 naming the input`, async () => {
      for (const [k, c] of fileCommands.entries()) {
        const name = `edge-${k}-${what.replace(/\W+/g, '_')}${c.suffix}`
        const p = path.join(dir, name)
        make(p)
        const out = path.join(dir, `out-${k}`)
        const argv = c.argv(p, out)
        const r = await expectCliCase(`${what}: ${argv.join(' ')}`, argv, [name], [out, out + '.motlist.663'])
        expect(r.code, `${argv.join(' ')}\n${r.stderr}`).toBe(1)
        rmSync(p, { recursive: true, force: true })
      }
    })

    it(`${what}: a GF set whose 1.bin is ${what} exits 1 or reports it`, async () => {
      const set = path.join(dir, `set-${what.replace(/\W+/g, '_')}`)
      mkdirSync(set)
      for (let i = 0; i < 9; i++) if (i !== 1) copyFileSync(path.join(repoRoot, 'resources', 'samples', 'gf-set', `${i}.bin`), path.join(set, `${i}.bin`))
      make(path.join(set, '1.bin'))
      for (const argv of [['gf', 'info', set, '--json'], ['gf', 'textures', set, '--json'], ['gf', 'extract', set, '--out', path.join(dir, 'gf-out')]]) {
        const r = await expectCliCase(`${what} 1.bin: ${argv.join(' ')}`, argv, ['1.bin'], [path.join(dir, 'gf-out')])
        rmSync(path.join(dir, 'gf-out'), { recursive: true, force: true })
        void r
      }
      rmSync(set, { recursive: true, force: true })
    })
  }

  it('a file where a GF set folder is expected, and an empty folder, exit 1 naming it', async () => {
    const f = path.join(dir, 'not-a-set')
    writeFileSync(f, 'x')
    const empty = path.join(dir, 'empty-set')
    mkdirSync(empty)
    for (const p of [f, empty]) {
      const r = await expectCliCase(`gf info ${p}`, ['gf', 'info', p, '--json'], [path.basename(p)])
      expect(r.code).toBe(1)
    }
  })
})
