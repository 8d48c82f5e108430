/**
 * guardOutput: the output rule of docs/CLI.md in one function. An existing output is refused
 * without force (message names --force); an input, a file inside an input folder, a folder holding
 * an input, a catalog source (also through a symbolic or hard link) are refused even with force;
 * temps of dead runs beside the output are removed, those of live runs kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { guardOutput, pidAlive, removeStaleTemps } from '../../../../src-main/node/output-guard'

let dir = ''
let set = ''
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'guard-'))
  set = path.join(dir, 'set')
  mkdirSync(set)
  writeFileSync(path.join(set, '1.bin'), 'input')
  writeFileSync(path.join(dir, 'in.bin'), 'input')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The id of a process that has ended (a child that ran and exited). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(r.stdout)
}

describe('guardOutput', () => {
  it('passes a new output, and refuses an existing one without force naming --force', () => {
    expect(() => guardOutput({ out: path.join(dir, 'new.glb'), inputs: [path.join(dir, 'in.bin')] })).not.toThrow()
    const old = path.join(dir, 'old.glb')
    writeFileSync(old, 'x')
    expect(() => guardOutput({ out: old })).toThrow(/old\.glb already exists; pass --force/)
    expect(() => guardOutput({ out: old, force: true })).not.toThrow()
    expect(() => guardOutput({ out: old, agree: 'confirm replacing it' })).toThrow(/confirm replacing it/)
  })

  it('a folder output: an empty folder passes, a non-empty one needs force, a file is refused', () => {
    const empty = path.join(dir, 'empty')
    mkdirSync(empty)
    expect(() => guardOutput({ out: empty, kind: 'folder' })).not.toThrow()
    writeFileSync(path.join(empty, 'a.png'), 'x')
    expect(() => guardOutput({ out: empty, kind: 'folder' })).toThrow(/--force/)
    expect(() => guardOutput({ out: empty, kind: 'folder', force: true })).not.toThrow()
    expect(() => guardOutput({ out: path.join(dir, 'in.bin'), kind: 'folder', force: true })).toThrow(/is a file, not a folder/)
    expect(() => guardOutput({ out: empty, force: true })).toThrow(/is a folder; give a file name/)
  })

  it('refuses an input, a file in an input set, a folder holding an input, even with force', () => {
    const input = path.join(dir, 'in.bin')
    expect(() => guardOutput({ out: input, inputs: [input], force: true })).toThrow(/is an input of this command/)
    expect(() => guardOutput({ out: path.join(set, '1.bin'), inputs: [set], force: true })).toThrow(/lies inside the input folder/)
    expect(() => guardOutput({ out: path.join(set, 'new', 'x.png'), inputs: [set], force: true, kind: 'folder' })).toThrow(/lies inside/)
    expect(() => guardOutput({ out: set, inputs: [set], kind: 'folder', force: true })).toThrow(/is an input/)
    expect(() => guardOutput({ out: dir, inputs: [set], kind: 'folder', force: true })).toThrow(/holds an input/)
    expect(() => guardOutput({ out: path.join(set, '1.bin'), sources: [path.join(set, '1.bin')], force: true })).toThrow(/a source file of the catalog/)
    expect(() => guardOutput({ out: 'x', flag: '--layeredfs', inputs: ['x'] })).toThrow(/^--layeredfs x is an input/)
  })

  it('sees through symbolic links and hard links', () => {
    const alias = path.join(dir, 'alias')
    symlinkSync(set, alias)
    expect(() => guardOutput({ out: path.join(alias, '1.bin'), inputs: [set], force: true })).toThrow(/lies inside/)
    expect(() => guardOutput({ out: path.join(alias, 'sub', 'new.png'), inputs: [set], force: true })).toThrow(/lies inside/)
    const hard = path.join(dir, 'hard.bin')
    linkSync(path.join(dir, 'in.bin'), hard)
    expect(() => guardOutput({ out: hard, inputs: [path.join(dir, 'in.bin')], force: true })).toThrow(/is an input/)
  })
})

describe('removeStaleTemps', () => {
  it('removes the temp files and folders of dead runs beside the output, keeps live ones and others', () => {
    const out = path.join(dir, 'model.glb')
    const dead = deadPid()
    expect(pidAlive(dead)).toBe(false)
    const deadFile = `.model.glb.${dead}.0123abcd.tmp`
    const deadDir = `.model.glb.${dead}.89abcdef.tmp`
    const live = `.model.glb.${process.pid}.01234567.tmp`
    const other = `.other.glb.${dead}.01234567.tmp`
    writeFileSync(path.join(dir, deadFile), 'half')
    mkdirSync(path.join(dir, deadDir))
    writeFileSync(path.join(dir, deadDir, 'a.png'), 'half')
    writeFileSync(path.join(dir, live), 'in progress')
    writeFileSync(path.join(dir, other), 'another output')
    expect(removeStaleTemps(out).map((p) => path.basename(p)).sort()).toEqual([deadFile, deadDir].sort())
    const left = readdirSync(dir)
    expect(left).toContain(live)
    expect(left).toContain(other)
    expect(left).not.toContain(deadFile)
    guardOutput({ out: path.join(dir, 'other.glb') })
    expect(existsSync(path.join(dir, other))).toBe(false)
  })
})
