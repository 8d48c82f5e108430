import { describe, expect, test } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { parseGfModel, modelCounts } from '../../../../../src-shared/formats/gf/model'
import { boneWorldMatrices, inverseBindMatrices } from '../../../../../src-shared/formats/gf/skeleton'
import { mat4FromTRS, quatFromEulerExtrinsicXYZ, transformPoint } from '../../../../../src-shared/scene/math'
import { buildGfModel, type ModelSpec } from '../../../../fixtures/gf/build-model'
import { highModelSpec, lowModelSpec } from '../../../../fixtures/gf/skinned'

const ctx = { file: '0.bin', entry: 0, base: 0x40 }
const close = (a: ArrayLike<number>, b: number[], eps = 1e-5) => Array.from(a).forEach((x, i) => expect(x).toBeCloseTo(b[i]!, -Math.log10(eps)))

function failure(spec: ModelSpec, patch?: (b: Uint8Array) => void): FormatError {
  const bytes = buildGfModel(spec)
  patch?.(bytes)
  try {
    parseGfModel(bytes, ctx)
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError)
    return e as FormatError
  }
  throw new Error('expected a FormatError')
}

describe('GFModel reader', () => {
  const m = parseGfModel(buildGfModel(highModelSpec()), ctx)

  test('name tables, bones with parents and bind transforms', () => {
    expect(m.textureNames).toEqual(['pm0999_00_BodyA1', 'pm0999_00_BodyB1', 'pm0999_00_Eye1', 'LutRim'])
    expect(m.bones.map((b) => [b.name, b.parent, b.flags])).toEqual([['Origin', -1, 2], ['Waist', 0, 1], ['Head', 1, 1], ['Tail', 1, 1]])
    expect(m.bones[2]!.translation).toEqual([0, 5, 0])
    expect(m.bones[2]!.rotation[2]).toBeCloseTo(Math.PI / 2, 6)
    expect(m.luts).toEqual([{ hash: expect.any(Number), name: 'LutRim' }])
    expect(m.transform).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
  })

  test('materials: texture units with transform and wrap, render state from the command list', () => {
    const eye = m.materials[2]!
    expect(eye.name).toBe('EyeMat')
    expect(eye.units[0]).toMatchObject({ texture: 'pm0999_00_Eye1', translation: [0.25, 0], wrapU: 'clamp-edge', wrapV: 'clamp-edge', scale: [1, 1] })
    expect(eye.state.cull).toBe(0)
    expect(eye.state.alphaTest).toEqual({ enabled: true, func: 6, ref: 128 })
    expect(m.materials[1]!.state.blend).toMatchObject({ enabled: true, colorSrc: 6, colorDst: 7 })
    expect(m.materials[0]!.state).toMatchObject({ cull: 2, blend: { enabled: false }, depth: { test: true, func: 4, write: true } })
    expect(m.materials[0]!.colors.diffuse).toEqual([255, 255, 255, 0])
  })

  test('layout A (spec §15.5): offsets 0/12/24/32/36, stride 40, fixed colour, u8 weights ÷ 255', () => {
    const s = m.meshes[0]!.subMeshes[0]!
    expect(s.stride).toBe(40)
    expect(s.attributes.map((a) => [a.semantic, a.format, a.offset])).toEqual([['position', 'f32', 0], ['normal', 'f32', 12], ['texcoord0', 'f32', 24], ['boneIndex', 'u8', 32], ['boneWeight', 'u8', 36], ['color', 'fixed', undefined]])
    close(s.positions.subarray(6, 9), [2, 14, 0])
    close(s.colors!.subarray(0, 4), [1, 128 / 255, 0, 1])
    expect(Array.from(s.boneSlots!.subarray(8, 12))).toEqual([0, 1, 0, 0])
    close(s.boneWeights!.subarray(8, 12), [128 / 255, 127 / 255, 0, 0])
    expect(Array.from(s.indices)).toEqual([0, 1, 2, 0, 2, 3])
    expect(s.indexFormat).toBe('u16')
    expect(s.palette).toEqual([1, 2])
  })

  test('layout B: s8 normal ÷ 127, s16 UV ÷ 32767 (offset rounded to 2), fixed BoneWeight 255 → 1, u8 strip', () => {
    const s = m.meshes[1]!.subMeshes[0]!
    expect(s.attributes.map((a) => [a.semantic, a.format, a.offset])).toEqual([['position', 'f32', 0], ['normal', 's8', 12], ['texcoord0', 's16', 16], ['boneIndex', 'u8', 20], ['boneWeight', 'fixed', undefined]])
    close(s.normals!.subarray(0, 3), [0, 0, 1])
    close(s.uvs[0]!.subarray(2, 8), [1, 0, 0, 16384 / 32767, 1, 1])
    close(s.boneWeights!.subarray(0, 4), [1, 0, 0, 0])
    expect(s.indexFormat).toBe('u8')
    expect(s.primitive).toBe('strip')
    expect(Array.from(s.indices)).toEqual([0, 1, 2, 2, 1, 3]) // second triangle of a strip flips its first two
  })

  test('a fan becomes (0,1,2), (0,2,3); counts are what the index buffers draw', () => {
    expect(Array.from(m.meshes[0]!.subMeshes[1]!.indices)).toEqual([0, 1, 2, 0, 2, 3])
    expect(modelCounts(m)).toEqual({ meshes: 2, vertices: 12, triangles: 6 })
    expect(modelCounts(parseGfModel(buildGfModel(lowModelSpec()), ctx))).toEqual({ meshes: 1, vertices: 3, triangles: 1 })
  })
})

describe('skeleton matrices (spec §7.1)', () => {
  test('Euler order: X first, then Y, then Z (q = qz·qy·qx, the kit\'s extrinsic XYZ)', () => {
    // (0, 1, 0) rotated +90° about X is (0, 0, 1); then +90° about Y is (1, 0, 0).
    close(transformPoint(mat4FromTRS([0, 0, 0], quatFromEulerExtrinsicXYZ([Math.PI / 2, Math.PI / 2, 0]), [1, 1, 1]), [0, 1, 0]), [1, 0, 0])
    close(quatFromEulerExtrinsicXYZ([0, 0, Math.PI / 2]), [0, 0, Math.SQRT1_2, Math.SQRT1_2])
  })
  test('world and inverse bind by hand: Head at (0, 15, 0) turned 90° about Z', () => {
    const m = parseGfModel(buildGfModel(highModelSpec()), ctx)
    const w = boneWorldMatrices(m.bones)
    close(w.subarray(2 * 16 + 12, 2 * 16 + 15), [0, 15, 0])
    const ibm = inverseBindMatrices(m.bones)
    close(transformPoint(ibm.subarray(32, 48), [0, 16, 0]), [1, 0, 0], 1e-4) // one unit up in world is +X in Head's space
    close(transformPoint(ibm.subarray(48, 64), [0, 10, -4]), [0, 0, 0], 1e-4)
  })
  test('segment scale compensation: a child of a scaled parent keeps its own scale', () => {
    const bones = [
      { parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0], scale: [2, 2, 2] },
      { parent: 0, translation: [1, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] },
    ] as const
    const plain = boneWorldMatrices(bones as never)
    const ssc = boneWorldMatrices(bones as never, true)
    expect(plain[16]).toBe(2) // inherited scale
    expect(ssc[16]).toBe(1)
    // Translation: the parent's scale moves the child in both readings (2 · 1 = 2).
    expect([plain[28], ssc[28]]).toEqual([2, 2])
  })
})

describe('bad GFModel input names file, entry, structure and offset', () => {
  test('a sub-mesh bone palette entry past the bone count', () => {
    const spec = highModelSpec()
    spec.meshes[0]!.subMeshes[0]!.palette = [1, 9]
    const e = failure(spec)
    expect(e.message).toMatch(/^0\.bin: entry 0 GFModel GFMesh\[0\] 'Body' at 0x[0-9A-F]+: sub-mesh 0 'BodyMat': bone palette slot 1 names bone 9, the model has 4 bones/)
    expect(e.offset).toBeGreaterThan(0x40)
  })
  test('an index buffer past its vertex buffer', () => {
    const spec = lowModelSpec()
    spec.meshes[0]!.subMeshes[0]!.indices = [0, 1, 5]
    expect(failure(spec).message).toMatch(/entry 0 GFModel GFMesh\[0\] 'BodyLow' at 0x[0-9A-F]+: sub-mesh 0 'BodyMat': index 2 is 5, past its vertex buffer of 3 vertices/)
  })
  test('an index count past the index buffer', () => {
    const spec = lowModelSpec()
    spec.meshes[0]!.subMeshes[0]!.declaredIndexCount = 40
    expect(failure(spec).message).toMatch(/40 u16 indices need 80 bytes, its index buffer has 16/)
  })
  test('a PICA command whose count runs past its buffer', () => {
    const e = failure(lowModelSpec(), (b) => {
      const v = new DataView(b.buffer, b.byteOffset)
      for (let o = 0; o + 4 <= b.length; o += 4) if (v.getUint32(o, true) === 0x801f0201) return v.setUint32(o, 0xffff0201, true) // 0x7FF extras
    })
    expect(e.message).toMatch(/GFMesh\[0\] 'BodyLow' command block 0 at 0x[0-9A-F]+: command at 0x[0-9A-F]+ \(register 0x201\) declares 2047 extra parameters/)
  })
  test('an absurd bone count and a truncated entry', () => {
    const bytes = buildGfModel(lowModelSpec())
    expect(() => parseGfModel(bytes.subarray(0, 0x300), ctx)).toThrow(/^0\.bin: entry 0 GFModel/)
    const v = new DataView(bytes.buffer, bytes.byteOffset)
    let at = -1
    for (let o = 0; o + 16 <= bytes.length; o += 4) if (v.getInt32(o, true) === 4 && v.getUint32(o + 4, true) === 0 && bytes[o + 16] === 6) { at = o; break } // bone count, then "Origin"
    expect(at).toBeGreaterThan(0)
    v.setInt32(at, 1_000_000, true)
    expect(() => parseGfModel(bytes, ctx)).toThrow(/bone count 1000000 is absurd/)
  })
})
