import { describe, expect, it } from 'vitest'
import { PrimitiveBuilder, SceneAssembler, appendModel, buildPrimitives, identityMatrices, rebaseMaterialTracks } from '../../../../src-shared/scene/assemble'
import type { Material, Texture } from '../../../../src-shared/scene/types'

const tex = (name: string): Texture => ({ name, width: 1, height: 1, rgba: new Uint8Array(4), wrapS: 'repeat', wrapT: 'repeat' })
const mat = (name: string): Material => ({ name, baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided: false })

describe('scene assembler', () => {
  it('dedups textures and materials by key, making each once, indices in first-use order', () => {
    const a = new SceneAssembler('s')
    let made = 0
    const t = (k: string) => a.texture(k, () => (made++, tex(k)))
    expect([t('a'), t('b'), t('a'), t('b'), t('c')]).toEqual([0, 1, 0, 1, 2])
    expect(made).toBe(3)
    expect(a.scene.textures.map((x) => x.name)).toEqual(['a', 'b', 'c'])
    const m = (k: string) => a.material(k, (i) => mat(`mat${i}_${k}`))
    expect([m('x'), m('y'), m('x')]).toEqual([0, 1, 0])
    expect(a.scene.materials.map((x) => x.name)).toEqual(['mat0_x', 'mat1_y'])
  })
  it('a failed texture is remembered, or retried at every use when asked', () => {
    for (const retry of [false, true]) {
      const a = new SceneAssembler('s', { retryFailedTextures: retry })
      let calls = 0
      const bad = () => a.texture('bad', () => { calls++; a.warn('no pixels'); return undefined })
      expect([bad(), bad(), bad()]).toEqual([undefined, undefined, undefined])
      expect(calls).toBe(retry ? 3 : 1)
      expect(a.warnings.length).toBe(retry ? 3 : 1)
      expect(a.scene.textures.length).toBe(0)
      // a good texture after the failure still gets index 0
      expect(a.texture('good', () => tex('good'))).toBe(0)
    }
  })
  it('unique names, meshes only with primitives, nodes in order', () => {
    const a = new SceneAssembler('s')
    expect(['j', 'j', 'k', 'j', 'j_2'].map((n) => a.uniqueName(n))).toEqual(['j', 'j_2', 'k', 'j_3', 'j_2_2'])
    expect(a.mesh('empty', [])).toBeUndefined()
    const p = new PrimitiveBuilder(0)
    p.pos.push(0, 0, 0, 1, 0, 0, 0, 1, 0)
    p.idx.push(0, 1, 2)
    expect(a.mesh('tri', buildPrimitives([p, new PrimitiveBuilder(1)]))).toBe(0)
    expect(a.scene.meshes[0]!.primitives.length).toBe(1) // the builder without triangles is left out
    expect(a.node({ name: 'n', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })).toBe(0)
  })
  it('packs an attribute only when every vertex has it; one joint per vertex is rigid skinning', () => {
    const p = new PrimitiveBuilder(3)
    const add = (x: number, withNormal: boolean) => p.shared(`v${x}`, () => {
      p.pos.push(x, 0, 0)
      p.uv.push(x / 2, 0)
      p.col.push(1, 0.5, 0, 1)
      if (withNormal) p.nrm.push(0, 1, 0)
      p.joint.push(x)
    })
    p.idx.push(add(0, true), add(1, false), add(2, true), add(0, true))
    expect(p.vertexCount).toBe(3) // v0 shared
    const prim = p.build()!
    expect(Array.from(prim.indices)).toEqual([0, 1, 2, 0])
    expect(prim.normals).toBeUndefined() // vertex 1 has none
    expect(Array.from(prim.colors!)).toEqual([1, 0.5, 0, 1, 1, 0.5, 0, 1, 1, 0.5, 0, 1])
    expect(Array.from(prim.uvs!)).toEqual([0, 0, 0.5, 0, 1, 0])
    expect(Array.from(prim.joints!)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0])
    expect(Array.from(prim.weights!)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])
    expect(prim.material).toBe(3)
    expect(p.build({ uvs: false })!.uvs).toBeUndefined()
    expect(new PrimitiveBuilder(0).build()).toBeNull()
  })
  it('four joints and weights per vertex are packed as given', () => {
    const p = new PrimitiveBuilder(0)
    p.pos.push(0, 0, 0, 1, 0, 0, 0, 1, 0)
    p.joints4.push(0, 1, 0, 0, 2, 3, 4, 0, 5, 0, 0, 0)
    p.weights4.push(0.75, 0.25, 0, 0, 0.5, 0.25, 0.25, 0, 1, 0, 0, 0)
    p.idx.push(0, 1, 2)
    const prim = p.build()!
    expect(Array.from(prim.joints!)).toEqual([0, 1, 0, 0, 2, 3, 4, 0, 5, 0, 0, 0])
    expect(Array.from(prim.weights!)).toEqual([0.75, 0.25, 0, 0, 0.5, 0.25, 0.25, 0, 1, 0, 0, 0])
  })
  it('identity matrices', () => {
    expect(Array.from(identityMatrices(2))).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
  })
})

describe('appendModel (instancing a built model)', () => {
  /** A model with 2 textures, 2 materials (the second on texture 1) and one mesh of one primitive on material 1. */
  function model(): SceneAssembler {
    const m = new SceneAssembler('m')
    m.texture('t0', () => tex('t0'))
    const t1 = m.texture('t1', () => tex('t1'))!
    m.material('m0', () => mat('m0'))
    const m1 = m.material('m1', () => ({ ...mat('m1'), texture: t1 }))
    const p = new PrimitiveBuilder(m1)
    p.pos.push(0, 0, 0, 1, 0, 0, 0, 1, 0)
    p.idx.push(0, 1, 2)
    m.mesh('mesh', buildPrimitives([p]))
    return m
  }
  it('adds the model once, re-basing its texture and material references; a clip’s material tracks follow', () => {
    const into = model().scene // 2 textures, 2 materials, 1 mesh already
    const from = model().scene
    const off = appendModel(into, from)
    expect(off).toEqual({ mesh: 1, material: 2, texture: 2 })
    expect(into.textures.length).toBe(4)
    expect(into.materials[3]!.texture).toBe(3) // material 1 of the model → 2 + 1, on texture 2 + 1
    expect(into.meshes[1]!.primitives[0]!.material).toBe(3)
    expect(from.materials[1]!.texture).toBe(1) // the model itself is not changed
    const r = rebaseMaterialTracks({ name: 'c', duration: 1, frameRate: 30, channels: [], textureSwaps: [{ material: 1, times: new Float32Array([0]), textures: new Uint32Array([0]) }] }, off)
    expect(r.textureSwaps![0]!.material).toBe(3)
    expect(Array.from(r.textureSwaps![0]!.textures)).toEqual([2])
  })
})
