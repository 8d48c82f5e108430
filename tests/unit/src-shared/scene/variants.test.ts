import { expect, test } from 'vitest'
import { sceneInVariant } from '../../../../src-shared/scene/variants'
import { emptyScene, type Scene } from '../../../../src-shared/scene/types'

test('a variant swaps the materials it lists and leaves the others', () => {
  const s: Scene = { ...emptyScene('v'), variants: [{ name: 'normal', replace: [] }, { name: 'shiny', replace: [[0, 2]] }] }
  const prim = (material: number) => ({ positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]), material })
  s.meshes = [{ name: 'm', primitives: [prim(0), prim(1)] }]
  expect(sceneInVariant(s, 'shiny').meshes[0]!.primitives.map((p) => p.material)).toEqual([2, 1])
  expect(sceneInVariant(s, 'normal')).toBe(s)
  expect(sceneInVariant(s, 'missing')).toBe(s)
  expect(s.meshes[0]!.primitives[0]!.material).toBe(0) // input unchanged
})
