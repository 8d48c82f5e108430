import { describe, expect, it } from 'vitest'
import { dataUrlBytes, defaultModName, defaultZipPath, gameFileName, stemOf } from '../../../../../src-renderer/components/re/mod-defaults'

describe('mod dialog defaults: the game file the mod replaces', () => {
  it('names the mod and the zip after the game file, a folder game path after the saved file', () => {
    expect(gameFileName('natives/stm/_chainsaw/animation/ch/ch0_pose.motlist.663', '/out/my.motlist.663')).toBe('ch0_pose.motlist.663')
    expect(gameFileName('natives\\stm\\x\\', 'C:\\mods\\my.motlist.663')).toBe('my.motlist.663')
    expect(defaultModName('natives/stm/a/ch0_pose.motlist.663', '/out/my.motlist.663')).toBe('ch0_pose')
    expect(defaultModName('natives/stm/a/', '/out/my.motlist.663')).toBe('my')
    expect(defaultZipPath('natives/stm/a/pl0000.motlist.85', '/out/sub/my.motlist.85')).toBe('/out/sub/pl0000.zip')
    expect(defaultZipPath('natives/stm/a/pl0000.mot.65', 'C:\\mods\\my.mot.65')).toBe('C:\\mods\\pl0000.zip')
    expect(stemOf('a.b.mesh.2109148288')).toBe('a.b')
    expect(stemOf('noext')).toBe('noext')
  })
  it('decodes the view capture (a base64 PNG data URL)', () => {
    expect(Array.from(dataUrlBytes('data:image/png;base64,iVBORw0KGgo='))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(() => dataUrlBytes('data:image/png,abc')).toThrow(/not a base64 data URL/)
  })
})
