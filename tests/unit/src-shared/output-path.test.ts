import { describe, expect, it } from 'vitest'
import { baseOf, defaultOutputPath, numbered, parentOf } from '../../../src-shared/output-path'

/** Default output paths (issue 14): beside the input, never inside an input folder, never an input file. */
describe('defaultOutputPath', () => {
  it('a GF set output goes beside the set folder, not inside it', () => {
    const set = '/mods/a0/set'
    expect(defaultOutputPath({ beside: set, name: 'set-repacked', inputFolders: [set] })).toBe('/mods/a0/set-repacked')
    // a texture's PNG (proposed beside a member file of the set) still lands outside the set
    expect(defaultOutputPath({ beside: '/mods/a0/set/1.bin', name: 'set-png', inputFolders: [set] })).toBe('/mods/a0/set-png')
    // nested input folders: out of both
    expect(defaultOutputPath({ beside: '/m/outer/inner/x.bin', name: 'o', inputFolders: ['/m/outer/inner', '/m/outer'] })).toBe('/m/o')
    // a name that would be the set itself is numbered
    expect(defaultOutputPath({ beside: set, name: 'set', inputFolders: [set] })).toBe('/mods/a0/set-2')
  })

  it('never proposes an input file: the pose editor’s first Save As beside its template', () => {
    const template = '/re/pl/pose.motlist.663'
    expect(defaultOutputPath({ beside: template, name: 'pose.motlist.663', inputFiles: [template] })).toBe('/re/pl/pose-2.motlist.663')
    expect(defaultOutputPath({ beside: template, name: 'Wave.motlist.663', inputFiles: [template] })).toBe('/re/pl/Wave.motlist.663')
    const taken = new Set(['/re/pl/pose-2.motlist.663'])
    expect(defaultOutputPath({ beside: template, name: 'pose.motlist.663', inputFiles: [template], taken: (p) => taken.has(p) })).toBe('/re/pl/pose-3.motlist.663')
  })

  it('works with Windows paths (either case of the drive, a trailing separator)', () => {
    expect(defaultOutputPath({ beside: 'C:\\mods\\set\\', name: 'set-png', inputFolders: ['c:\\mods\\set'] })).toBe('C:\\mods\\set-png')
    expect(defaultOutputPath({ beside: 'C:\\re\\t.motlist.663', name: 't.motlist.663', inputFiles: ['C:/re/t.motlist.663'] })).toBe('C:\\re\\t-2.motlist.663')
  })

  it('path parts', () => {
    expect(parentOf('/a/b/')).toBe('/a')
    expect(parentOf('/a')).toBe('/')
    expect(parentOf('a')).toBe('')
    expect(baseOf('/a/b/')).toBe('b')
    expect(numbered('x', 2)).toBe('x-2')
    expect(numbered('.hidden', 3)).toBe('.hidden-3')
    expect(numbered('a.tar.gz', 2)).toBe('a-2.tar.gz')
  })
})
