/**
 * Contract tests for `re pack-mod`'s checks (CLI.md "RE Engine motions"): FILE must parse as the
 * kind its name says, its version suffix must equal the game path's, a corrupt file is exit 1,
 * and line breaks in the description are Fluffy's literal `\n`. The motlist is the spec's §10.3
 * file (680 bytes, from its hex dump); the damaged copies are cut or patched here by offset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { cli as runCli, spawnCli } from '../helpers/cli'
import { spec103Bytes } from '../fixtures/re/spec-vectors'
import { characterMesh } from '../fixtures/re/mesh'

const cli = (...argv: string[]) => runCli(argv)
let dir: string
const p = (f: string) => path.join(dir, f)

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mb-packmod-'))
  const spec = spec103Bytes()
  writeFileSync(p('pose.motlist.663'), spec)
  // the same bytes under an RE2 suffix: the name says 85, the header says 663
  writeFileSync(p('pose.motlist.85'), spec)
  // cut inside the mot: the motlist's pointer table points past the end
  writeFileSync(p('cut.motlist.663'), spec.subarray(0, 0x60))
  // magic at 0x4 overwritten
  const bad = spec.slice()
  bad.set([0x78, 0x78, 0x78, 0x78], 4)
  writeFileSync(p('nomagic.motlist.663'), bad)
  // a RE4R mesh (layout C, spec §15.1) and the same cut short
  const mesh = characterMesh('C')
  writeFileSync(p('cha0.mesh.221108797'), mesh)
  writeFileSync(p('cut.mesh.221108797'), mesh.subarray(0, 0x40))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pack = (file: string, gamePath: string, out: string, ...more: string[]) => cli('re', 'pack-mod', '--file', p(file), '--game-path', gamePath, '--name', 'Pose', ...more, '--out', p(out))

describe('re pack-mod checks the file it packs', () => {
  it('a .motlist.663 under a .motlist.663 game path (or a folder path) is packed', async () => {
    let r = await pack('pose.motlist.663', 'natives/stm/_chainsaw/animation/player/ch0_pose.motlist.663', 'ok1.zip')
    expect(r.code, r.stderr).toBe(0)
    r = await pack('pose.motlist.663', 'natives/stm/_chainsaw/animation/player/', 'ok2.zip')
    expect(r.code, r.stderr).toBe(0)
    expect(Object.keys(unzipSync(new Uint8Array(readFileSync(p('ok2.zip')))))).toContain('natives/stm/_chainsaw/animation/player/pose.motlist.663')
  })

  it('a version suffix other than the game path\'s is exit 1 naming both; nothing written', async () => {
    const before = readdirSync(dir).sort()
    const r = await pack('pose.motlist.663', 'natives/stm/streaming/escape/motlist/pl0000.motlist.85', 'v.zip')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/pose\.motlist\.663 is a \.motlist\.663 but the game path natives\/stm\/streaming\/escape\/motlist\/pl0000\.motlist\.85 names a \.motlist\.85/)
    const k = await pack('pose.motlist.663', 'natives/stm/x/pose.mot.613', 'k.zip')
    expect(k.code).toBe(1)
    expect(k.stderr).toMatch(/is a \.motlist\.663 but the game path natives\/stm\/x\/pose\.mot\.613 names a \.mot\.613/)
    expect(readdirSync(dir).sort()).toEqual(before)
  })

  it('a file whose header says another version than its name: exit 1 naming file, structure and offset', async () => {
    const r = await pack('pose.motlist.85', 'natives/stm/x/pose.motlist.85', 'h.zip')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/pose\.motlist\.85: header at 0x0: its name says \.motlist\.85 but it is a motlist of version 663/)
  })

  it('a corrupt file is exit 1 (real exit code) naming the file, and no zip', async () => {
    for (const f of ['cut.motlist.663', 'nomagic.motlist.663']) {
      const r = await spawnCli(['re', 'pack-mod', '--file', p(f), '--game-path', `natives/stm/x/${f}`, '--name', 'n', '--out', p(`${f}.zip`)])
      expect(r.code, f).toBe(1)
      expect(r.stderr).toContain(p(f))
      expect(r.stderr).toMatch(/ at 0x[0-9A-F]+: /)
      expect(readdirSync(dir)).not.toContain(`${f}.zip`)
    }
  })

  it('a .mesh.N is read in the layout its suffix names: a good one is packed, a cut one is exit 1', async () => {
    const ok = await pack('cha0.mesh.221108797', 'natives/stm/_chainsaw/character/ch/cha0/cha000/00/cha000_00.mesh.221108797', 'mesh.zip')
    expect(ok.code, ok.stderr).toBe(0)
    const bad = await pack('cut.mesh.221108797', 'natives/stm/x/cut.mesh.221108797', 'cutmesh.zip')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain(p('cut.mesh.221108797'))
    expect(readdirSync(dir)).not.toContain('cutmesh.zip')
    const v = await pack('cha0.mesh.221108797', 'natives/stm/x/cha0.mesh.2109108288', 'v2.zip')
    expect(v.code).toBe(1)
    expect(v.stderr).toMatch(/is a \.mesh\.221108797 but the game path natives\/stm\/x\/cha0\.mesh\.2109108288 names a \.mesh\.2109108288/)
  })

  it('line breaks in the description are written as Fluffy\'s literal \\n (CRLF, LF, CR alike)', async () => {
    const r = await pack('pose.motlist.663', 'natives/stm/x/pose.motlist.663', 'd.zip', '--description', 'line one\r\nline two\nline three\rfour', '--author', 'A\nB')
    expect(r.code, r.stderr).toBe(0)
    const ini = strFromU8(unzipSync(new Uint8Array(readFileSync(p('d.zip'))))['modinfo.ini']!)
    expect(ini.split('\r\n')).toContain('description=line one\\nline two\\nline three\\nfour')
    expect(ini.split('\r\n')).toContain('author=A B')
  })
})
