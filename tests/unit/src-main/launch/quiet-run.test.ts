import { describe, expect, it } from 'vitest'
import * as os from 'node:os'
import { quietRun, startArgs } from '../../../../src-main/launch/quiet-run'

/**
 * `npm start`'s quiet build (issue 25): a real child that prints 110 lines. Quiet, a success
 * prints nothing and a failure prints the whole output and how to see it as it goes.
 */
const build = (code: number) => ['-e', `for (let i = 1; i <= 110; i++) console.log('line ' + i); console.error('the error'); process.exit(${code})`]

describe('quietRun', () => {
  it('a build that succeeds prints nothing', () => {
    const out: string[] = []
    expect(quietRun(process.execPath, build(0), { cwd: os.tmpdir(), verbose: false, write: (t) => out.push(t) })).toBe(0)
    expect(out).toEqual([])
  })
  it('a build that fails prints its output, then the command and --verbose', () => {
    const out: string[] = []
    expect(quietRun(process.execPath, build(3), { cwd: os.tmpdir(), verbose: false, write: (t) => out.push(t) })).toBe(3)
    const text = out.join('')
    expect(text.split('\n').filter((l) => /^line \d+$/.test(l))).toHaveLength(110)
    expect(text).toContain('the error\n')
    expect(out[out.length - 1]).toMatch(/failed \(exit 3\); run npm start -- --verbose/)
  })
  it('a command that cannot run is a failure that says why', () => {
    const out: string[] = []
    expect(quietRun('/nonexistent/electron-vite', ['build'], { cwd: os.tmpdir(), verbose: false, write: (t) => out.push(t) })).toBe(1)
    expect(out.join('')).toContain('ENOENT')
  })
})

describe('startArgs', () => {
  it('takes --verbose out; the rest goes to modbench serve', () => {
    expect(startArgs(['--port', '8080', '--verbose'])).toEqual({ verbose: true, rest: ['--port', '8080'] })
    expect(startArgs(['--port', '8080'])).toEqual({ verbose: false, rest: ['--port', '8080'] })
  })
})
