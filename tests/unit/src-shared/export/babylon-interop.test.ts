import { describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { Scene as BScene } from '@babylonjs/core/scene.js'
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js'
import '@babylonjs/loaders/glTF/2.0/index.js'
import { exportGlb } from '../../../../src-shared/export/gltf'
import { demoScene } from '../../../../src-shared/scene/demo'

/** A second reader: Babylon's own glTF loader takes our glb (skins, clips, materials, unlit). */
describe('glb interop with Babylon’s glTF loader', () => {
  it('loads the demo glb with its skeleton, clips and materials', async () => {
    const scene = demoScene()
    const glb = await exportGlb(scene)
    const engine = new NullEngine()
    const b = new BScene(engine)
    try {
      const c = await LoadAssetContainerAsync(glb, b, { pluginExtension: '.glb' })
      expect(c.skeletons.length).toBe(1)
      expect(c.skeletons[0].bones.filter((x) => x.getIndex() >= 0).length).toBe(scene.skins[0].joints.length)
      expect(c.animationGroups.map((g) => g.name)).toEqual(scene.animations.map((a) => a.name))
      // Babylon counts in frames of its animations' frame rate: back to seconds.
      const bend = c.animationGroups[0]
      expect(bend.to / bend.targetedAnimations[0].animation.framePerSecond).toBeCloseTo(2, 5)
      const names = c.materials.map((m) => m.name)
      for (const m of scene.materials) expect(names).toContain(m.name)
      const ground = c.materials.find((m) => m.name === 'ground') as unknown as { unlit: boolean }
      expect(ground.unlit).toBe(true)
    } finally {
      b.dispose()
      engine.dispose()
    }
  })
})
