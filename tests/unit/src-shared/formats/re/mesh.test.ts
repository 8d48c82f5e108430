/**
 * The `.mesh` reader (spec re-motlist §15) against the spec's §10.11 vectors: bone-name hashes,
 * the decoded local matrix of `_j210_efc` (the real file's 64 bytes, copied from the spec), the
 * root-last bone order, the buffer-header numbers of a 1871-vertex / 8712-index submesh with six
 * elements, and hand-computed vertex decoding (i8 / 127, IEEE halves, weights / 255 through the
 * remap, padding slots ignored). Meshes are built in layouts A, B, RE8 and C.
 */
import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary'
import { boneHash, decomposeMatrix, describeMesh, halfToFloat, meshGeometry, meshSkeletonBones, readMesh } from '../../../../../src-shared/formats/re'
import { MESH_SUFFIX, buildMesh, characterMesh, stripSubmesh, swordBones, type MeshFixtureLayout, type SubmeshDraft } from '../../../../fixtures/re/mesh'

const LAYOUTS: MeshFixtureLayout[] = ['A', 'B', 'RE8', 'C']

/** §10.11: `_j210_efc`'s local matrix at 0x210 of LS_Swd014.mesh.2109148288. */
const J210_BYTES = '514a7b3f 00000000 668443be 00000000 00000000 0000803f 00000000 00000000 6684433e 00000000 514a7b3f 00000000 00000000 0dd723b4 25640940 0000803f'
function hexBytes(s: string): Uint8Array {
  const h = s.replace(/\s+/g, '')
  return Uint8Array.from({ length: h.length / 2 }, (_, i) => parseInt(h.slice(i * 2, i * 2 + 2), 16))
}

describe('§10.11 vectors', () => {
  it('bone names hash to the §6 values (UTF-16LE murmur3, seed 0xFFFFFFFF)', () => {
    expect(boneHash('_j001')).toBe(0xfdcd6344)
    expect(boneHash('Root')).toBe(0xf8dfd3bb)
    expect(boneHash('_j210_efc')).toBe(0x06c55c65)
    expect(boneHash('COG')).toBe(0xcc3297ea)
    expect(boneHash('l_arm_wrist')).toBe(0xeb6aaf75)
  })

  it('the stored matrix of _j210_efc decodes to the spec TRS', () => {
    const bones = swordBones()
    bones[2]!.rawLocal = hexBytes(J210_BYTES)
    const bytes = buildMesh({ layout: 'B', bones, materials: ['L_Swd_014'], lods: [[[stripSubmesh(0, 6, 0, 1)]]] })
    const mesh = readMesh(bytes, 'LS_Swd014.mesh.2109148288')
    // one LOD, one group, one submesh: the skeleton lands where the real file has it
    expect(mesh.header.skeletonOffset).toBe(0x118)
    expect(mesh.skeleton!.offset).toBe(0x118)
    const b = mesh.skeleton!.bones[2]!
    expect(b.name).toBe('_j210_efc')
    expect(b.translation[0]).toBe(0)
    expect(b.translation[1]).toBeCloseTo(-1.526e-7, 10)
    expect(b.translation[2]).toBeCloseTo(2.146737, 6)
    const want = [0, 0.0959095, 0, 0.9953901]
    b.rotation.forEach((v, k) => expect(v).toBeCloseTo(want[k]!, 6))
    // 11.007° about +Y
    expect((2 * Math.acos(b.rotation[3]) * 180) / Math.PI).toBeCloseTo(11.007, 2)
    b.scale.forEach((s) => expect(s).toBeCloseTo(1, 6))
    // parent _j001 (bone 0), whose parent is Root (bone 3, the last bone)
    const json = describeMesh(mesh)
    expect(json.bones[2]!.parent).toBe('_j001')
    expect(json.bones[0]!.parent).toBe('Root')
    expect(json.bones[3]).toMatchObject({ index: 3, name: 'Root', parent: null, hash: 0xf8dfd3bb })
    expect(json.bones[0]!.hash).toBe(0xfdcd6344)
    expect(json.bones[2]!.hash).toBe(0x06c55c65)
  })

  it('decomposeMatrix: the spec rows → TRS (independent of the file)', () => {
    const m = [0.981603, 0, -0.190935, 0, 0, 1, 0, 0, 0.190935, 0, 0.981603, 0, 0, -1.5e-7, 2.146737, 1]
    const { translation, rotation, scale } = decomposeMatrix(m)
    expect(translation).toEqual([0, -1.5e-7, 2.146737])
    expect(rotation[1]).toBeCloseTo(0.0959095, 5)
    expect(rotation[3]).toBeCloseTo(0.9953901, 5)
    scale.forEach((s) => expect(s).toBeCloseTo(1, 5))
    // a mirrored matrix: the negative determinant goes into x scale
    const mirrored = decomposeMatrix([-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    expect(mirrored.scale).toEqual([-1, 1, 1])
  })

  it('1871 vertices, 8712 indices, six elements: the buffer header numbers of the real file', () => {
    const N = 1871
    const vertices = Array.from({ length: N }, (_, i) => ({ p: [i, 0, 0] as [number, number, number] }))
    const indices = Array.from({ length: 8712 }, (_, i) => i % N)
    const sm: SubmeshDraft = { material: 0, vertices, indices }
    const mesh = readMesh(buildMesh({ layout: 'B', bones: swordBones(), materials: ['L_Swd_014'], lods: [[[sm]]] }), 'LS_Swd014.mesh.2109148288')
    const b = mesh.buffer!
    expect(b.vertexBufferSize).toBe(89808)
    expect(b.indexBufferSize).toBe(17424)
    expect([b.elementCount, b.elementCount2]).toEqual([6, 6])
    expect([...b.elements.values()].map((e) => e.start)).toEqual([0, 12 * N, 20 * N, 24 * N, 28 * N, 44 * N])
    expect(describeMesh(mesh).lods).toEqual([{ meshes: [{ material: 'L_Swd_014', vertices: 1871, triangles: 2904, weights: 8 }] }])
    expect(mesh.skeleton!.remap).toEqual([0, 1, 2, 3])
  })
})

describe('layouts A, B, RE8, C', () => {
  for (const layout of LAYOUTS) {
    it(`${layout}: skeleton, materials, LODs, geometry`, () => {
      const mesh = readMesh(characterMesh(layout), `pl0000.mesh.${MESH_SUFFIX[layout]}`)
      const json = describeMesh(mesh)
      expect(json.version).toBe(MESH_SUFFIX[layout])
      expect(json.bones.map((b) => b.name)).toEqual(['root', 'COG', 'Hip', 'Spine_0', 'Head', 'L_Forearm', 'l_arm_wrist', 'R_Toe'])
      expect(json.bones[1]).toMatchObject({ hash: 0xcc3297ea, parent: 'root', translation: [0, 1, 0] })
      expect(json.bones[6]!.hash).toBe(0xeb6aaf75)
      // COG: 0.2 rad about Y → (0, sin 0.1, 0, cos 0.1)
      expect(json.bones[1]!.rotation[1]).toBeCloseTo(Math.sin(0.1), 6)
      expect(json.bones[1]!.rotation[3]).toBeCloseTo(Math.cos(0.1), 6)
      expect(json.materials).toEqual(['body_mat', 'head_mat'])
      // strips of 8, 6 and 4 vertices: 6, 4 and 2 triangles
      expect(json.lods).toEqual([
        { meshes: [{ material: 'body_mat', vertices: 8, triangles: 6, weights: 8 }, { material: 'head_mat', vertices: 6, triangles: 4, weights: 8 }] },
        { meshes: [{ material: 'body_mat', vertices: 4, triangles: 2, weights: 8 }] },
      ])
      const g = meshGeometry(mesh, 0)
      expect(g.warnings).toEqual([])
      const [s0, s1] = g.submeshes
      expect(s0!.indices).toEqual(new Uint32Array([0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4, 4, 5, 6, 5, 7, 6]))
      expect([...s0!.positions.slice(3, 6)]).toEqual([Math.fround(0.1), 0, 0])
      expect([...s0!.normals!.slice(0, 3)]).toEqual([0, 0, 1])
      expect([...s0!.tangents!.slice(0, 4)]).toEqual([1, 0, 0, 1])
      expect([...s0!.uvs!.slice(2, 4)]).toEqual([1, 0])
      // vertex 0 of submesh 0: slot 0 (remap[0] = COG = bone 1), weight 255; the padding slots have weight 0
      expect([...s0!.joints!.slice(0, 8)]).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
      expect([...s0!.weights!.slice(0, 8)]).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
      // submesh 1 (slots 2, 3 → Head = 4, L_Forearm = 5), its last vertex weighted 255 to slot 3;
      // the second slot's byte says 2 but its weight is 0: joint 0, weight 0
      const last = (s1!.positions.length / 3 - 1) * 8
      expect([...s1!.joints!.slice(last, last + 2)]).toEqual([5, 0])
      expect([...s1!.weights!.slice(last, last + 2)]).toEqual([1, 0])
      expect(meshSkeletonBones(mesh).map((b) => [b.name, b.parent])).toEqual(json.bones.map((b, i) => [b.name, i === 0 ? -1 : json.bones.findIndex((x) => x.name === b.parent)]))
    })
  }

  it('4-slot weights (stride 8), 32-bit indices', () => {
    const mesh = readMesh(characterMesh('C', { weightSlots: 4, indices32: true }), 'x.mesh.221108797')
    expect(describeMesh(mesh).lods[0]!.meshes[0]!.weights).toBe(4)
    const g = meshGeometry(mesh, 0).submeshes[0]!
    expect(g.slots).toBe(4)
    expect([...g.joints!.slice(0, 4)]).toEqual([1, 0, 0, 0])
    expect(g.indices.slice(0, 3)).toEqual(new Uint32Array([0, 1, 2]))
  })

  it('the layout comes from the suffix, else from the internal version', () => {
    const b = characterMesh('A')
    expect(readMesh(b, 'no-suffix.mesh').layout.name).toBe('A')
    expect(readMesh(b).layout.name).toBe('A')
    expect(() => readMesh(b, 'x.mesh.230110883')).toThrow(/SF6/)
    expect(() => readMesh(b, 'x.mesh.240820143')).toThrow(/DD2 or later/)
  })
})

describe('halfToFloat', () => {
  it('IEEE 754 binary16', () => {
    expect(halfToFloat(0x3c00)).toBe(1)
    expect(halfToFloat(0x3800)).toBe(0.5)
    expect(halfToFloat(0xc000)).toBe(-2)
    expect(halfToFloat(0x0001)).toBe(2 ** -24)
    expect(halfToFloat(0x7c00)).toBe(Infinity)
    expect(halfToFloat(0x3555)).toBeCloseTo(0.33325, 5)
  })
})

describe('bad meshes name the file, the structure and the offset', () => {
  const good = characterMesh('B')
  const name = 'bad.mesh.2109148288'
  const fail = (bytes: Uint8Array): FormatError => {
    try {
      const m = readMesh(bytes, name)
      meshGeometry(m, 0)
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError)
      return e as FormatError
    }
    throw new Error('no error')
  }
  it('bad magic', () => {
    const b = good.slice()
    b[0] = 0
    const e = fail(b)
    expect(e.message).toMatch(/^bad\.mesh\.2109148288: MeshHeader\.magic at 0x0: not an RE Engine mesh/)
  })
  it('truncated', () => {
    const e = fail(good.slice(0, 0x60))
    expect(e.file).toBe(name)
    expect(e.structure).toMatch(/^MeshHeader/)
    expect(e.offset).toBeDefined()
  })
  it('an index past the submesh', () => {
    const mesh = readMesh(good, name)
    const b = good.slice()
    const at = mesh.buffer!.indexBufferOffset
    new DataView(b.buffer).setUint16(at + 2, 99, true)
    const e = fail(b)
    expect(e.structure).toBe('MeshLod[0].MeshGroup[0].Submesh[0]')
    expect(e.offset).toBe(at + 2)
    expect(e.message).toContain('index 1 = 99')
  })
  it('a parent cycle', () => {
    const mesh = readMesh(good, name)
    const info = Number(new DataView(good.buffer).getBigUint64(mesh.skeleton!.offset + 0x10, true))
    const b = good.slice()
    new DataView(b.buffer).setInt16(info + 2, 2, true) // root's parent = Hip, whose chain leads back to root
    const e = fail(b)
    expect(e.message).toMatch(/cycle/)
    expect(e.structure).toMatch(/^MeshBone\[/)
  })
})
