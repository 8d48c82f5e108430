import { describe, expect, it } from 'vitest'
import { Reader } from '../../../../../src-shared/binary'
import { readStandaloneMot, readMot, readMotionFile, describeMotionFile, writeMot, motLayout, SUPPORTED_MOT_VERSIONS } from '../../../../../src-shared/formats/re'
import { buildStandaloneMot, buildTemplateMotlist } from '../../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength)

describe('mot header layouts (spec §4.1, §4.8)', () => {
  it.each([
    [43, 0x74, 0x50, 0x6e],
    [65, 0x74, 0x50, 0x6e],
    [78, 0x74, 0x50, 0x6e],
    [456, 0x7c, 0x58, 0x76],
    [458, 0x7e, 0x58, 0x78],
    [613, 0x7e, 0x58, 0x78],
    [698, 0x7e, 0x58, 0x78],
    [932, 0x7e, 0x58, 0x78],
  ])('mot %d: header 0x%s, name pointer 0x%s, FrameRate u16 at 0x%s', (version, headerSize, namePtr, frAt) => {
    const layout = motLayout(version)
    expect(layout.headerSize).toBe(headerSize)
    const b = buildStandaloneMot(version, { codecs: 'simple' })
    expect(dv(b).getUint16(frAt, true)).toBe(60)
    const nameOff = Number(dv(b).getBigUint64(namePtr, true))
    expect(String.fromCharCode(...Array.from({ length: 11 }, (_, i) => dv(b).getUint16(nameOff + i * 2, true)))).toBe('fixture_mot')
    expect(dv(b).getFloat32(namePtr + 8, true)).toBe(30) // frameCount right after the name pointer
    const m = readStandaloneMot(b, 'x.mot')
    expect(m.version).toBe(version)
    expect(m.name).toBe('fixture_mot')
    expect(m.header.frameRate).toBe(60)
    expect(m.bones).toHaveLength(40)
    // clip and track header sizes per version
    expect(m.clips[1]!.offset - m.clips[0]!.offset).toBe(version <= 43 ? 16 : version <= 65 ? 24 : 12)
    const hip = m.clips[1]!
    expect(hip.rotation!.offset - hip.translation!.offset).toBe(version < 78 ? 40 : 20)
  })

  it('RE4R writes 0 at 0x76, 60 at 0x78 and 0 at 0x7A–0x7F', () => {
    const b = buildStandaloneMot(613, { codecs: 'simple' })
    expect(dv(b).getUint16(0x76, true)).toBe(0)
    expect(dv(b).getUint16(0x78, true)).toBe(60)
    expect([...b.subarray(0x7a, 0x80)]).toEqual([0, 0, 0, 0, 0, 0])
  })
})

describe('bone list ownership (spec §3.3)', () => {
  it('a standalone mot has a non-zero motSize and its bone block after it', () => {
    const b = buildStandaloneMot(613)
    const m = readStandaloneMot(b)
    expect(m.header.motSize).toBeGreaterThan(0)
    expect(m.header.boneHeaderOffsetStart).toBeGreaterThanOrEqual(m.header.motSize)
    expect(m.ownsBones).toBe(true)
    // the mot's data (incl. its name) ends at motSize
    expect(m.header.nameOffset + (m.name.length + 1) * 2).toBe(m.header.motSize)
  })

  it('inside a motlist, motSize = 0 owns the list; boneHeaderOffsetStart ≥ motSize does not', () => {
    const b = buildTemplateMotlist()
    const f = readMotionFile(b)
    if (f.kind !== 'motlist') throw new Error('kind')
    expect(f.motlist.mots[0]!.header.motSize).toBe(0)
    expect(f.motlist.mots[0]!.ownsBones).toBe(true)
    expect(f.motlist.mots[1]!.ownsBones).toBe(false)
    expect(f.motlist.mots[1]!.bones).toBeNull()
  })

  it('accepts the bones-before-name layout (0 < boneHeaderOffsetStart < motSize)', () => {
    const b = buildStandaloneMot(613, { codecs: 'simple' })
    const m0 = readStandaloneMot(b)
    // pretend the data ends after the bone block: motSize = file end
    dv(b).setUint32(0x0c, b.byteLength, true)
    const m = readMot(new Reader(b), { inMotlist: true })
    expect(m.ownsBones).toBe(true)
    expect(m.bones!.map((x) => x.name)).toEqual(m0.bones!.map((x) => x.name))
  })

  it('rebuilds the tree from parent pointers; first-child/next-sibling are written REE-Lib style', () => {
    const sk = fixtureSkeleton()
    const b = writeMot({ version: 613, name: 'm', frameCount: 1, blending: 0, frameRate: 60, bones: sk, clips: [], motSize: 'end' })
    const m = readStandaloneMot(b)
    expect(m.bones!.map((x) => x.parent)).toEqual(sk.map((x) => x.parent))
    const first = Number(dv(b).getBigUint64(m.header.boneHeaderOffsetStart, true))
    const at = (i: number) => first + i * 80
    const hipChildren = sk.map((x, i) => [x, i] as const).filter(([x]) => x.parent === 1).map(([, i]) => i)
    expect(Number(dv(b).getBigUint64(at(1) + 0x10, true))).toBe(at(hipChildren[0]!))
    expect(Number(dv(b).getBigUint64(at(hipChildren[0]!) + 0x18, true))).toBe(at(hipChildren[1]!))
    expect(Number(dv(b).getBigUint64(at(hipChildren.at(-1)!) + 0x18, true))).toBe(0)
    expect(m.bones!.map((x) => x.storedIndex)).toEqual(sk.map((_, i) => i))
  })
})

describe('bad mots', () => {
  it('an unsupported mot version', () => {
    const b = buildStandaloneMot(613, { codecs: 'simple' })
    dv(b).setUint32(0, 614, true)
    expect(() => readStandaloneMot(b, 'x.mot.614')).toThrow(/mot version 614 is not supported; supported: 43, 65/)
    expect(SUPPORTED_MOT_VERSIONS).toContain(613)
  })
  it('a header cut short', () => {
    const b = buildStandaloneMot(613, { codecs: 'simple' })
    expect(() => readStandaloneMot(b.subarray(0, 0x40), 'x.mot.613')).toThrow(/x\.mot\.613.*MotHeader/)
  })
  it('describes a standalone mot as kind "mot" with one motion', () => {
    const info = describeMotionFile(readMotionFile(buildStandaloneMot(613)))
    expect(info).toMatchObject({ kind: 'mot', version: 613, name: 'fixture_mot' })
    expect(info.motions).toHaveLength(1)
    expect(info.motions[0]).toMatchObject({ index: 0, id: null, name: 'fixture_mot', frameCount: 30, frameRate: 60 })
  })
})
