import { describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { Scene as BScene } from '@babylonjs/core/scene.js'
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js'
import '@babylonjs/loaders/glTF/2.0/index.js'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { parseGfSet } from '../../../../../src-shared/formats/gf/gf-set'
import { buildGfScene } from '../../../../../src-shared/formats/gf/scene'
import { buildSyntheticSet } from '../../../../fixtures/gf/build-set'

/** A second consumer of the GF glb: Babylon's glTF loader builds the armature, clips and the shiny variant. */
describe('GF glb in Babylon’s glTF loader', () => {
  it('one skeleton with the four bones, one animation group per motion, the shiny variant selectable', async () => {
    const { scene } = buildGfScene(parseGfSet(buildSyntheticSet(1).files))
    const glb = await exportGlb(scene)
    const engine = new NullEngine()
    const b = new BScene(engine)
    try {
      const c = await LoadAssetContainerAsync(glb, b, { pluginExtension: '.glb' })
      expect(c.skeletons.length).toBe(1)
      expect(c.skeletons[0]!.bones.map((x) => x.name).sort()).toEqual(['Head', 'Origin', 'Tail', 'Waist'])
      expect(c.animationGroups.map((g) => g.name)).toEqual(['4.bin/0', '4.bin/2', '5.bin/0', '6.bin/0', '6.bin/1', '7.bin/0'])
      const idle = c.animationGroups[0]!
      expect(idle.to / idle.targetedAnimations[0]!.animation.framePerSecond).toBeCloseTo(20 / 30, 4)
      const { KHR_materials_variants: V } = await import('@babylonjs/loaders/glTF/2.0/Extensions/KHR_materials_variants.js')
      const root = c.meshes.find((m) => m.name === '__root__')!
      expect(V.GetAvailableVariants(root)).toEqual(['normal', 'shiny'])
      c.addAllToScene()
      const body = c.meshes.find((m) => m.material?.name === 'BodyMat')!
      V.SelectVariant(root, 'shiny')
      expect(body.material!.name).toBe('BodyMat (shiny)')
    } finally {
      b.dispose()
      engine.dispose()
    }
  })
})
