import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { formatError } from '../../../../../src-renderer/components/ui/format-error'

describe('formatError', () => {
  it('a reader error: the plain sentence first, file/structure/offset after', () => {
    const e = new FormatError('texture data runs past the end of the file', { file: '/roms/snap.z64', structure: 'GFTexture', offset: 0x1a40 })
    expect(e.message).toBe('/roms/snap.z64: GFTexture at 0x1A40: texture data runs past the end of the file')
    const f = formatError(e)
    expect(f.plain).toBe('Texture data runs past the end of the file')
    expect(f.detail).toBe('/roms/snap.z64: GFTexture at 0x1A40')
    expect(f.full).toBe(e.message)
  })
  it('a file-only error splits at the path', () => {
    expect(formatError(new Error('/x/a.bin: file is empty'))).toEqual({ plain: 'File is empty', detail: '/x/a.bin', full: '/x/a.bin: file is empty' })
  })
  it('a plain message stays whole', () => {
    expect(formatError('no scene for this asset')).toEqual({ plain: 'No scene for this asset', detail: '', full: 'no scene for this asset' })
  })
})
