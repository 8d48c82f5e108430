import { describe, expect, it } from 'vitest'
import { bytes, formatNumber, rowsOf } from '../../../../src-renderer/components/inspector-rows'

const texts = (k: string, v: unknown) => rowsOf(k, v).map((r) => [r.key, r.depth, r.text])

describe('Inspector rows', () => {
  it('numbers get units or hex as the key says (hand-computed)', () => {
    expect(bytes(1536)).toBe('1.50 KiB (1536 bytes)')
    expect(formatNumber('size', 12 * 1024 * 1024)).toBe('12.0 MiB (12582912 bytes)')
    expect(formatNumber('offset', 6720)).toBe('0x1A40 (6720)')
    expect(formatNumber('locator.descriptor', 255)).toBe('0xFF (255)')
    expect(formatNumber('frames', 300)).toBe('300 (0x12C)')
    expect(formatNumber('yaw', 1.570796)).toBe('1.5708')
    expect(formatNumber('count', 12)).toBe('12')
  })
  it('scalars: booleans in words, null as a dash', () => {
    expect(texts('verified', true)).toEqual([['verified', 0, 'yes']])
    expect(texts('gfx', null)).toEqual([['gfx', 0, '—']])
  })
  it('lists of numbers short, long lists counted', () => {
    expect(texts('worldPos', [1, 2.5, -3])).toEqual([['worldPos', 0, '1, 2.5, -3']])
    const long = rowsOf('v', Array.from({ length: 20 }, (_, i) => i))[0]!.text
    expect(long).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 … (20 values)')
  })
  it('objects and arrays of objects become nested rows, never JSON', () => {
    const rows = rowsOf('meta', { stage: 'beach', pos: { x: 1, y: 2 }, textures: [{ name: 'a', size: 2048 }] })
    expect(rows.map((r) => [r.key, r.label, r.depth, r.text])).toEqual([
      ['meta', 'meta', 0, ''],
      ['meta.stage', 'stage', 1, 'beach'],
      ['meta.pos', 'pos', 1, ''],
      ['meta.pos.x', 'x', 2, '1'],
      ['meta.pos.y', 'y', 2, '2'],
      ['meta.textures', 'textures', 1, '1 item'],
      ['meta.textures[0]', '[0]', 2, ''],
      ['meta.textures[0].name', 'name', 3, 'a'],
      ['meta.textures[0].size', 'size', 3, '2.00 KiB (2048 bytes)'],
    ])
    for (const r of rows) expect(r.text).not.toMatch(/[{[]/)
  })
  it('deep nesting is summarised, not dumped', () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } }
    const rows = rowsOf('x', deep)
    expect(rows.at(-1)).toEqual({ key: 'x.a.b.c.d', label: 'd', depth: 4, text: '1 field' })
  })
})
