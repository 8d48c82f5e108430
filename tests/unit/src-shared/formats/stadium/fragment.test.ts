/** FRAGMENT header, root finder, and geo-layout guards against hostile input (never hang). */
import { describe, expect, it } from 'vitest'
import { Module, findRootOffset, readFragmentHeader } from '../../../../../src-shared/formats/stadium/fragment'
import { parseGeoLayout } from '../../../../../src-shared/formats/stadium/geo-layout'
import { FormatError, LimitError } from '../../../../../src-shared/binary'
import { Asm } from '../../../../fixtures/stadium/asm'

function module(build: (a: Asm) => void, entry: number[] = [0, 0]): Module {
  const a = new Asm()
  a.u32(...entry).raw([...'FRAGMENT'].map((c) => c.charCodeAt(0))).u32(0x20, 0, 0, 0)
  build(a)
  const bytes = a.finish()
  return new Module(bytes, 0x8ff00000, 'test.bin')
}

describe('FRAGMENT and root struct', () => {
  it('rejects a module without the FRAGMENT magic', () => {
    const m = new Module(new Uint8Array(0x40), 0x8ff00000, 'x.bin')
    expect(() => readFragmentHeader(m.r)).toThrow(/FRAGMENT/)
  })
  it('follows the j at +0 and allows one instruction between LUI and ADDIU (delay slot)', () => {
    // entry at 0x40: lui v0, 0x8ff0; jr ra; addiu v0, v0, 0x60
    const m = module((a) => {
      while (a.pos < 0x40) a.u32(0)
      a.u32(0x3c028ff0, 0x03e00008, 0x24420060, 0)
      while (a.pos < 0x60) a.u32(0)
      a.u16(1).u8(0, 1, 0, 0, 0, 0).u32(0x8ff00080, 0, 0, 0)
      while (a.pos < 0x80) a.u32(0)
      a.u32(0x8ff00090, 0)
    }, [0x08000000 | ((0x8ff00040 & 0x0fffffff) >>> 2), 0])
    expect(findRootOffset(m, readFragmentHeader(m.r))).toBe(0x60)
  })
  it('falls back to scanning 0x20..0x7C when +0 is not a jump', () => {
    const m = module((a) => {
      a.u32(0x3c028ff0, 0x24420040, 0x03e00008, 0)
      while (a.pos < 0x40) a.u32(0)
      a.u16(1).u8(0, 1, 0, 0, 0, 0).u32(0x8ff00060, 0, 0, 0)
      while (a.pos < 0x60) a.u32(0)
      a.u32(0x8ff00070, 0)
    })
    expect(findRootOffset(m, readFragmentHeader(m.r))).toBe(0x40)
  })
  it('reports a module with no root pointer pair', () => {
    const m = module((a) => { while (a.pos < 0x100) a.u32(0) })
    expect(() => findRootOffset(m, readFragmentHeader(m.r))).toThrow(FormatError)
  })
})

describe('geo layout guards', () => {
  const at = 0x20
  it('stops a layout that jumps to itself with a LimitError', () => {
    const m = module((a) => a.u8(0x02, 0, 0, 0).u32(0x8ff00000 + at))
    expect(() => parseGeoLayout(m, at)).toThrow(LimitError)
  })
  it('stops calls nested deeper than the return stack', () => {
    const m = module((a) => a.u8(0x00, 0, 0, 0).u32(0x8ff00000 + at))
    expect(() => parseGeoLayout(m, at)).toThrow(/deeper than 16/)
  })
  it('treats opcode 0x12 as an error (the game would hang) and a pointer outside the module as bad input', () => {
    expect(() => parseGeoLayout(module((a) => a.u8(0x12, 0, 0, 0)), at)).toThrow(/0x12/)
    expect(() => parseGeoLayout(module((a) => a.u8(0x02, 0, 0, 0).u32(0x80001234)), at)).toThrow(/outside the module/)
  })
  it('stops at an unknown opcode with a warning, and runs past the end with a FormatError', () => {
    const g = parseGeoLayout(module((a) => a.u8(0x09, 0, 0, 0).u8(0x7f, 0, 0, 0)), at)
    expect(g.warnings.join(' ')).toMatch(/unknown opcode 0x7F/)
    expect(g.root?.op).toBe(0x09)
    expect(() => parseGeoLayout(module((a) => a.u8(0x09, 0, 0, 0).u8(0x1d, 0)), at)).toThrow(FormatError)
  })
  it('links nodes by the node stack: open/close, branch-and-link restores the depth', () => {
    const m = module((a) => {
      a.u8(0x09, 0, 0, 0) // root group
      a.u8(0x05, 0, 0, 0)
      a.u8(0x00, 0, 0, 0).ptr('sub') // call: opens inside and returns without closing
      a.u8(0x24, 0, 0, 5) // attach 5: back at depth 1, a child of the root
      a.u8(0x06, 0, 0, 0).u8(0x01, 0, 0, 0)
      a.label('sub').u8(0x09, 0, 0, 0).u8(0x05, 0, 0, 0).u8(0x24, 0, 0, 7).u8(0x01, 0, 0, 0)
    })
    const g = parseGeoLayout(m, at)
    const root = g.root!
    expect(root.children.map((c) => c.op)).toEqual([0x09, 0x24])
    expect(root.children[0]!.children.map((c) => c.op)).toEqual([0x24])
  })
})
