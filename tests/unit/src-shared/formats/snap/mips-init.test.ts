import { describe, expect, it } from 'vitest'
import { AddressMap } from '../../../../../src-shared/formats/snap/address-map'
import { mipsAsm as A, SP, RA, walkFunction } from '../../../../../src-shared/formats/snap/mips'
import { scanInitFunction } from '../../../../../src-shared/formats/snap/pokemon-def'
import { FormatError, LimitError } from '../../../../../src-shared/binary'

const BASE = 0x80400000
const T6 = 14, T7 = 15, A0 = 4, A1 = 5
const GROUND = 0x80362ee0, FREE = 0x80362e5c, OTHER = 0x80300000

/** A one-chunk map holding `words` at BASE (ROM offset 0x1000). */
function mapOf(words: number[]): AddressMap {
  const bytes = new Uint8Array(words.length * 4 + 16)
  const dv = new DataView(bytes.buffer)
  words.forEach((w, i) => dv.setUint32(i * 4, w >>> 0))
  return new AddressMap('t.z64', [{ archive: 'test', kind: 'Code', start: BASE, bytes, romStart: 0x1000 }])
}

describe('MIPS encodings (checked against hand-assembled words)', () => {
  it('lui/addiu/sw/jal/jr words', () => {
    // lui t6, 0x802D = 0x3C0E802D; addiu t6, t6, -0x3D10 = 0x25CEC2F0; sw t6, 0x14(sp) = 0xAFAE0014
    expect(A.lui(T6, 0x802d)).toBe(0x3c0e802d)
    expect(A.addiu(T6, T6, -0x3d10)).toBe(0x25cec2f0)
    expect(A.sw(T6, 0x14, SP)).toBe(0xafae0014)
    // jal 0x80362EE0 = 0x0C0D8BB8; jr ra = 0x03E00008
    expect(A.jal(GROUND)).toBe(0x0c0d8bb8)
    expect(A.jrRa()).toBe(0x03e00008)
    // li32 of 0x802CC2F0: the low half is negative, so the high half is carried (0x802D)
    expect(A.li32(T6, 0x802cc2f0)).toEqual([0x3c0e802d, 0x25cec2f0])
  })
})

describe('init scan (§3.8, §14.6)', () => {
  it('takes the 6th argument at sp+0x14 at the helper call; lui+addiu constants', () => {
    const map = mapOf([A.addiu(SP, SP, -0x28), A.sw(RA, 0x24, SP), 0x3c0e802d, 0x25cec2f0, 0xafae0014, A.jal(GROUND), A.nop(), A.jrRa(), A.nop()])
    const s = scanInitFunction(map, BASE, 'PokemonDef[0].init')
    expect(s.initData).toBe(0x802cc2f0)
    expect(s.helper).toBe('Pokemon_SpawnOnGround')
    expect(s.spawnType).toBe('ground')
    expect(s.callAt).toBe(BASE + 5 * 4)
  })
  it('the delay slot runs before the call; the last store to 0x14(sp) counts; addiu into another register; ori', () => {
    const map = mapOf([
      A.addiu(SP, SP, -0x20),
      A.lui(T6, 0x8011), A.ori(T6, T6, 0x1234), A.sw(T6, 0x14, SP), // decoy 0x80111234
      A.lui(T6, 0x8012), A.addiu(T7, T6, 0x0040), // t7 = 0x80120040
      A.jal(FREE), A.sw(T7, 0x14, SP), // stored in the delay slot
      A.jrRa(), A.nop(),
    ])
    const s = scanInitFunction(map, BASE, 'init')
    expect(s.initData).toBe(0x80120040)
    expect(s.spawnType).toBe('free')
  })
  it('a jal to another function is stepped over (and clobbers the temporaries)', () => {
    const ok = mapOf([A.jal(OTHER), A.nop(), ...A.li32(T6, 0x80200000), A.sw(T6, 0x14, SP), A.jal(GROUND), A.nop()])
    expect(scanInitFunction(ok, BASE, 'init').initData).toBe(0x80200000)
    // the constant is built before a call and stored after it: t6 is not preserved, no constant
    const clobbered = mapOf([...A.li32(T6, 0x80200000), A.jal(OTHER), A.nop(), A.sw(T6, 0x14, SP), A.jal(GROUND), A.nop()])
    expect(() => scanInitFunction(clobbered, BASE, 'init')).toThrow(/no constant 6th argument/)
  })
  it('the sp offset follows the frame: a store before `addiu sp` is not the outgoing argument', () => {
    const map = mapOf([...A.li32(T6, 0x80200000), A.sw(T6, 0x14, SP), A.addiu(SP, SP, -0x18), A.jal(GROUND), A.nop()])
    expect(() => scanInitFunction(map, BASE, 'init')).toThrow(/no constant 6th argument/)
  })
  it('builds an address but never calls a helper: an error naming the function, no constant taken', () => {
    const map = mapOf([...A.li32(T6, 0x80200000), A.sw(T6, 0x14, SP), A.jal(OTHER), A.nop(), A.jrRa(), A.nop()])
    const e = (() => { try { scanInitFunction(map, BASE, 'PokemonDef[2].init'); return null } catch (x) { return x as FormatError } })()
    expect(e).toBeInstanceOf(FormatError)
    expect(e!.message).toMatch(/PokemonDef\[2\]\.init 0x80400000/)
    expect(e!.message).toMatch(/returns at 0x80400014 without calling a spawn helper/)
    expect(e!.offset).toBe(0x1000 + 0x14)
  })
  it('a backward branch that never reaches a helper is a LimitError within the step budget, not a hang', () => {
    const map = mapOf([A.nop(), A.addiu(T6, T6, 1), A.b(-2), A.nop()])
    let err: unknown
    const t0 = Date.now()
    try { scanInitFunction(map, BASE, 'PokemonDef[1].init', 500) } catch (x) { err = x }
    expect(err).toBeInstanceOf(LimitError)
    expect((err as Error).message).toMatch(/PokemonDef\[1\]\.init 0x80400000.*no spawn-helper call within 500 instructions/)
    expect(Date.now() - t0).toBeLessThan(5000)
  })
  it('code running off the mapped chunk is an unmapped-address error', () => {
    const map = mapOf([A.nop()])
    expect(() => scanInitFunction(map, BASE + 0x1000, 'init')).toThrow(/is in no mapped chunk/)
  })
  it('conditional branches fall through; `j` is taken', () => {
    const map = mapOf([A.bne(A0, A1, 10), A.nop(), A.j(BASE + 5 * 4), A.nop(), A.jrRa(), ...A.li32(T6, 0x80210000), A.sw(T6, 0x14, SP), A.jal(GROUND), A.nop()])
    expect(scanInitFunction(map, BASE, 'init').initData).toBe(0x80210000)
  })
  it('walkFunction reports the call arguments', () => {
    const map = mapOf([A.lui(A1, 0x8013), A.jal(OTHER), A.addiu(A1, A1, 0x20), A.jrRa(), A.nop()])
    const seen: (number | undefined)[] = []
    const r = walkFunction(map, BASE, 'state', { onJal: (ev) => { seen.push(ev.args[1]); return false } })
    expect(seen).toEqual([0x80130020])
    expect(r.end).toBe('return')
  })
})
