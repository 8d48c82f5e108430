/**
 * RE meshes carry up to 8 bone weights per vertex (spec re-motlist §15.8): the mesh → neutral scene
 * path keeps all 8 (heaviest first, normalised over the 8) and the glb carries influences 5–8 as
 * JOINTS_1/WEIGHTS_1 (glTF 2.0 §3.7.3.3), read back here by glTF-Transform and checked by the
 * Khronos validator. Expected values are the fixture's weight bytes / 255, sorted by hand.
 */
import { describe, expect, it } from 'vitest'
import { WebIO } from '@gltf-transform/core'
import { validateBytes } from 'gltf-validator'
import { addMeshToScene, readMesh } from '../../../../../src-shared/formats/re'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { emptyScene } from '../../../../../src-shared/scene/types'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { buildMesh, characterBones, eightWeightSubmesh, stripSubmesh, type SubmeshDraft } from '../../../../fixtures/re/mesh'

/** Its four vertices: 8 weighted bones, 1, 2 and 5; the remap below is the identity. */
const eightWeights = eightWeightSubmesh(0)

function sceneOf(submeshes: SubmeshDraft[]) {
  const bones = characterBones()
  const mesh = readMesh(buildMesh({ layout: 'C', bones, remap: bones.map((_, k) => k), materials: ['body_mat'], lods: [[submeshes]] }), 'cha.mesh.221108797')
  const scene = emptyScene('cha')
  bones.forEach((b) => scene.nodes.push({ name: b.name, parent: b.parent, translation: [...b.t], rotation: [...b.r], scale: [1, 1, 1] }))
  const warnings = addMeshToScene(scene, mesh, bones.map((_, k) => k), 'cha')
  validateScene(scene)
  return { scene, warnings }
}

const by255 = (a: number[]) => a.map((b) => b / 255)

describe('8 bone weights per vertex: RE mesh → scene → glb', () => {
  it('the scene keeps all 8, heaviest first, in joints/weights and joints1/weights1', () => {
    const { scene, warnings } = sceneOf([eightWeights])
    expect(warnings).toEqual([])
    const p = scene.meshes[0]!.primitives[0]!
    expect([...p.joints!]).toEqual([3, 1, 6, 2, 2, 0, 0, 0, 4, 5, 0, 0, 1, 2, 3, 4])
    expect([...p.joints1!]).toEqual([5, 0, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0])
    const w = [...by255([100, 60, 40, 20]), 1, 0, 0, 0, ...by255([128, 127, 0, 0]), ...by255([90, 70, 50, 30])]
    const w1 = [...by255([15, 10, 6, 4]), 0, 0, 0, 0, 0, 0, 0, 0, ...by255([15, 0, 0, 0])]
    ;[...p.weights!].forEach((x, i) => expect(x, `weights[${i}]`).toBeCloseTo(w[i]!, 6))
    ;[...p.weights1!].forEach((x, i) => expect(x, `weights1[${i}]`).toBeCloseTo(w1[i]!, 6))
  })

  it('a submesh with at most 4 weighted bones per vertex gets no second set', () => {
    const p = sceneOf([stripSubmesh(0, 6, 1, 2)]).scene.meshes[0]!.primitives[0]!
    expect(p.joints).toBeDefined()
    expect(p.joints1).toBeUndefined()
    expect(p.weights1).toBeUndefined()
  })

  it('the glb has JOINTS_1/WEIGHTS_1 (u16 joints, float weights) on that primitive only; the validator finds no error', async () => {
    const glb = await exportGlb(sceneOf([eightWeights, stripSubmesh(0, 6, 1, 2)]).scene)
    const report = await validateBytes(glb, { maxIssues: 100 })
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0)
    const doc = await new WebIO().readBinary(glb)
    const [eight, four] = doc.getRoot().listMeshes()[0]!.listPrimitives()
    expect(four!.getAttribute('JOINTS_1')).toBeNull()
    expect(four!.getAttribute('WEIGHTS_1')).toBeNull()
    const j1 = eight!.getAttribute('JOINTS_1')!
    const w1 = eight!.getAttribute('WEIGHTS_1')!
    expect(j1.getArray()).toBeInstanceOf(Uint16Array)
    expect(w1.getArray()).toBeInstanceOf(Float32Array)
    expect([...j1.getArray()!]).toEqual([5, 0, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0])
    expect([...eight!.getAttribute('JOINTS_0')!.getArray()!]).toEqual([3, 1, 6, 2, 2, 0, 0, 0, 4, 5, 0, 0, 1, 2, 3, 4])
    const w0 = [...eight!.getAttribute('WEIGHTS_0')!.getArray()!]
    const w1s = [...w1.getArray()!]
    ;[15, 10, 6, 4].forEach((b, c) => expect(w1s[c]).toBeCloseTo(b / 255, 6))
    expect(w1s[12]).toBeCloseTo(15 / 255, 6)
    for (let v = 0; v < 4; v++) {
      const sum = [0, 1, 2, 3].reduce((s, c) => s + w0[v * 4 + c]! + w1s[v * 4 + c]!, 0)
      expect(sum, `vertex ${v}`).toBeCloseTo(1, 6)
    }
  })
})
