/**
 * One voice on the command line (issue 15 item 7): an error names its path once; a GF error names
 * the set folder and the file; paths are printed as the user typed them (Stadium as Snap, GF set
 * members inside the typed folder); a template without a skeleton is named; a motion without bone
 * names warns; a required option is required and a negative number is a value; `serve --help`
 * describes its options and the server says what to do with its URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { joinNegativeValues } from '../../../../src-main/cli/main'
import { writeMot } from '../../../../src-shared/formats/re/mot'
import { writeMotlist } from '../../../../src-shared/formats/re/motlist'
import { PNG } from 'pngjs'
import { cli, cliBin, repoRoot } from '../../../helpers/cli'
import { fixtureClips } from '../../../fixtures/re/template'
import { twoPoseFile } from '../../../fixtures/re/poses'

const samples = path.join(repoRoot, 'resources', 'samples')
const motlist = path.join(samples, 're', 'sample.motlist.663')
let dir: string
const count = (text: string, s: string) => text.split(s).length - 1

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-voice-'))
  // a GF set whose 1.bin is cut short: its first entry (0x80 in the real file) lies past the end
  fs.cpSync(path.join(samples, 'gf-set'), path.join(dir, 'sets', 'pm0025'), { recursive: true })
  const one = path.join(dir, 'sets', 'pm0025', '1.bin')
  fs.writeFileSync(one, fs.readFileSync(one).subarray(0, 100))
  // ROM images cut to 5000 bytes: both games' readers refuse them with the file's name
  fs.mkdirSync(path.join(dir, 'roms'))
  fs.writeFileSync(path.join(dir, 'roms', 'stadium.z64'), gunzipSync(fs.readFileSync(path.join(samples, 'stadium-sample.z64.gz'))).subarray(0, 5000))
  fs.writeFileSync(path.join(dir, 'roms', 'snap.z64'), gunzipSync(fs.readFileSync(path.join(samples, 'snap-sample.z64.gz'))).subarray(0, 5000))
  // a motlist whose one mot has no bone header block and no shared list: no skeleton, its clips
  // name bones by hash only
  const mot = writeMot({ version: 613, name: 'noskel', frameCount: 30, blending: -1, frameRate: 60, bones: null, clips: fixtureClips(613), motSize: 'end' })
  fs.writeFileSync(path.join(dir, 'noskel.motlist.663'), writeMotlist({ version: 663, name: 'noskel', mots: [mot], entries: [{ mot: 0, motNumber: 1, type: 1 }] }))
  fs.writeFileSync(path.join(dir, 'one.png'), PNG.sync.write(Object.assign(new PNG({ width: 8, height: 8 }), { data: Buffer.alloc(8 * 8 * 4, 255) })))
  fs.writeFileSync(path.join(dir, 'pose.json'), twoPoseFile())
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('errors name their path once', () => {
  it('index: the failed source once per line (was "FILE: FILE: 1.bin: …"), on stderr only', async () => {
    const set = path.join(dir, 'sets', 'pm0025')
    for (const json of [false, true]) {
      const r = await cli(['index', set, '--db', path.join(dir, `c${json}.sqlite`), ...(json ? ['--json'] : [])])
      expect(r.code).toBe(1)
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('error: '))
      expect(lines).toHaveLength(1)
      expect(count(lines[0]!, set)).toBe(1)
      // the folder and the file inside it, then the structure and offset (1.bin: the package's entry 0 at 0x4)
      expect(lines[0]).toMatch(/^error: .*pm0025: 1\.bin: Package entry 0 at 0x4: entry 0 start 0x80 is past the end of the data \(size 0x64\)$/)
      if (!json) expect(r.stdout).not.toContain('Package entry') // the listing says "error", the detail is on stderr once
      else {
        // the damaged file is left out, the rest of the set is indexed (issue 25): not an `error`
        // source (the app shows no failure for it), the file listed under `damaged`
        expect(r.json().sources[0].damaged).toEqual([expect.stringContaining('1.bin: Package entry 0 at 0x4')])
        expect(r.json().sources[0].error).toBeUndefined()
        expect(r.json().sources[0].status).toBe('indexed')
        expect(r.json().sources[0].assets).toBeGreaterThan(1)
      }
    }
  })

  it('gf: the set folder and the file (SET/1.bin), not just 1.bin; warnings too', async () => {
    const set = path.join(dir, 'sets', 'pm0025')
    for (const cmd of [['gf', 'info', set], ['gf', 'textures', set], ['gf', 'extract', set, '--out', path.join(dir, 'x')]]) {
      const r = await cli(cmd)
      expect(r.code, cmd.join(' ')).toBe(1)
      expect(r.stderr).toBe(`modbench ${cmd[0]} ${cmd[1]}: error: ${path.join(set, '1.bin')}: Package entry 0 at 0x4: entry 0 start 0x80 is past the end of the data (size 0x64)\n`)
    }
    // a missing member is a warning naming the folder
    const partial = path.join(dir, 'sets', 'partial')
    fs.cpSync(path.join(samples, 'gf-set'), partial, { recursive: true })
    fs.rmSync(path.join(partial, '8.bin'))
    const r = await cli(['gf', 'textures', partial])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(`warning: ${path.join(partial, '8.bin')} missing from the set`)
    // an error raised after loading (no such entry) names the folder too
    const png = path.join(dir, 'one.png') // 8×8 white
    const rep = await cli(['gf', 'replace', path.join(samples, 'gf-set'), '--out', path.join(dir, 'rep'), '--texture', `1.bin:99=${png}`])
    expect(rep.code).toBe(1)
    expect(rep.stderr).toMatch(/error: .*gf-set[\\/]1\.bin/)
  })
})

describe('paths are printed as typed', () => {
  /** The built CLI in `cwd`, so that relative paths are relative to it. */
  const inDir = (argv: string[]) => spawnSync(process.execPath, [cliBin, ...argv], { cwd: dir, encoding: 'utf8', env: { ...process.env, MODBENCH_DEV: '' } })

  it('relative paths stay relative, for every game (Stadium printed the base name, Snap the path)', () => {
    const cases: [string[], string][] = [
      [['stadium', 'list', 'roms/stadium.z64'], 'modbench stadium list: error: roms/stadium.z64: BinArchive at 0x1388: truncated ROM'],
      [['snap', 'stages', 'roms/stadium.z64'], 'modbench snap stages: error: roms/stadium.z64: N64Header at 0x20: not a Pokémon Snap ROM'],
      [['stadium', 'diagnose', 'roms/snap.z64'], 'modbench stadium diagnose: error: roms/snap.z64: '],
      [['gf', 'info', 'sets/pm0025'], 'modbench gf info: error: sets/pm0025/1.bin: Package entry 0 at 0x4'],
      [['re', 'info', 'sets/pm0025/1.bin'], 'modbench re info: error: sets/pm0025/1.bin: header at 0x4: not an RE Engine motion file'],
    ]
    for (const [argv, start] of cases) {
      const r = inDir(argv)
      expect(r.status, argv.join(' ')).toBe(1)
      expect(r.stderr.startsWith(start), `${argv.join(' ')}: ${r.stderr}`).toBe(true)
    }
  })

  it('absolute paths stay absolute (Stadium no longer cuts them to the base name)', async () => {
    const rom = path.join(dir, 'roms', 'stadium.z64')
    const r = await cli(['stadium', 'list', rom])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`error: ${rom}: BinArchive at 0x1388`)
  })
})

describe('re commands say what they could not do', () => {
  it('pose2motlist: a template without a skeleton is named', async () => {
    const template = path.join(dir, 'noskel.motlist.663')
    const out = path.join(dir, 'out.motlist.663')
    const r = await cli(['re', 'pose2motlist', '--template', template, '--pose', path.join(dir, 'pose.json'), '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`modbench re pose2motlist: error: ${template}: BoneHeaders: the template has no skeleton (no bone header block; game motlists keep it in the character's .mesh): give it with --skeleton FILE.mesh.*\n`)
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('out.'))).toEqual([])
  })

  it('motion2pose: bones without names are a warning, not a silently empty pose', async () => {
    const file = path.join(dir, 'noskel.motlist.663')
    const out = path.join(dir, 'empty-pose.json')
    const r = await cli(['re', 'motion2pose', file, '--motion', '0', '--out', out, '--json'])
    expect(r.code).toBe(0)
    const clips = fixtureClips(613).length
    expect(r.stderr).toBe(`warning: ${file}: ${clips} of the ${clips} bones motion 0 animates have no name (no bone header names them), left out of the pose: the pose has no joints\n`)
    expect(r.json().joints).toBe(0)
    // a motion whose bones all have names: no warning
    const named = await cli(['re', 'motion2pose', motlist, '--motion', '0', '--out', path.join(dir, 'named.json')])
    expect(named.code).toBe(0)
    expect(named.stderr).toBe('')
  })

  it('sample: --frame and --motion are required (usage error, exit 2)', async () => {
    for (const argv of [['re', 'sample', motlist, '--motion', '0'], ['re', 'sample', motlist, '--frame', '0']]) {
      const r = await cli(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr).toMatch(/^modbench re sample: --(frame|motion) is required.*\nUsage: modbench re sample FILE --motion I --frame F/)
      expect(r.stdout).toBe('')
    }
  })

  it('sample: --frame -5 parses as --frame=-5 (a warning says frame 0 is what it gives)', async () => {
    const spaced = await cli(['re', 'sample', motlist, '--motion', '0', '--frame', '-5', '--json'])
    const joined = await cli(['re', 'sample', motlist, '--motion', '0', '--frame=-5', '--json'])
    const zero = await cli(['re', 'sample', motlist, '--motion', '0', '--frame', '0', '--json'])
    expect(spaced.code, spaced.stderr).toBe(0)
    expect(spaced.stdout).toBe(joined.stdout)
    expect(spaced.stdout).toBe(zero.stdout) // keys clamp at the first frame
    expect(spaced.stderr).toBe("warning: frame -5 is before motion 0's first frame; the values are frame 0's\n")
    expect(zero.stderr).toBe('')
  })
})

describe('joinNegativeValues', () => {
  const opts = { frame: { type: 'string' as const }, json: { type: 'boolean' as const } }
  it('joins a negative number to the value option before it, nothing else', () => {
    expect(joinNegativeValues(['F', '--frame', '-5', '--json'], opts)).toEqual(['F', '--frame=-5', '--json'])
    expect(joinNegativeValues(['--frame', '-.5'], opts)).toEqual(['--frame=-.5'])
    expect(joinNegativeValues(['--frame', '-x'], opts)).toEqual(['--frame', '-x']) // not a number: parseArgs reports it
    expect(joinNegativeValues(['--json', '-5'], opts)).toEqual(['--json', '-5']) // a flag takes no value
    expect(joinNegativeValues(['--frame=1', '-5'], opts)).toEqual(['--frame=1', '-5'])
    expect(joinNegativeValues(['--', '--frame', '-5'], opts)).toEqual(['--', '--frame', '-5'])
  })
})

describe('modbench serve', () => {
  it('--help describes each option', async () => {
    const r = await cli(['serve', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/--db FILE +the catalog file/)
    expect(r.stdout).toMatch(/--port N +the port to listen on, 0–65535 \(default 0: a free port\)/)
    expect(r.stdout).toMatch(/--no-samples +do not index the bundled samples/)
    expect(r.stdout).toMatch(/127\.0\.0\.1 only/)
    expect(r.stdout).toMatch(/Ctrl\+C stops/)
  })

  it('prints the URL first on stdout and says on stderr: open it, Ctrl+C stops', async () => {
    const child = spawn(process.execPath, [cliBin, 'serve', '--db', path.join(dir, 'serve.sqlite'), '--no-samples'], { env: { ...process.env, MODBENCH_DEV: '' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const until = Date.now() + 110_000
    while (!/Ctrl\+C/.test(err) && Date.now() < until && child.exitCode === null) await new Promise((r) => setTimeout(r, 100))
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(out.split('\n')[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\S*token=\S+$/)
    expect(err).toContain('modbench serve: open this URL in a browser; Ctrl+C stops the server.')
  }, 120_000)
})
