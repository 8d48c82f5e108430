import { describe, expect, it } from 'vitest'
import { previewPose, previewFrames } from '../../../../../src-renderer/components/re/gltf-preview'
import { skeletonScene, type MotBone } from '../../../../../src-shared/formats/re'

const bone = (index: number, name: string, parent: number): MotBone => ({ index, name, hash: index, parent, translation: [0, index, 0], rotation: [0, 0, 0, 1], storedIndex: index })

describe('previewPose: an imported clip on the editor skeleton', () => {
  const { scene } = skeletonScene([bone(0, 'root', -1), bone(1, 'Hip', 0), bone(2, 'Spine', 1)])
  // Hip turns from identity to 90° about Z over 1 s (30 fps); Spine moves up 1 m over the same time
  const s = Math.SQRT1_2
  scene.animations.push({
    name: 'a',
    duration: 1,
    frameRate: 30,
    channels: [
      { node: 1, path: 'rotation', times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 0, s, s]), interpolation: 'LINEAR' },
      { node: 2, path: 'translation', times: new Float32Array([0, 1]), values: new Float32Array([0, 2, 0, 0, 3, 0]), interpolation: 'LINEAR' },
    ],
  })
  const reference = { rotations: new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), translations: new Float64Array([9, 9, 9, 9, 9, 9, 9, 9, 9]) }

  it('samples animated bones in the editor\'s bone order and keeps the others at the reference', () => {
    // the editor lists the bones in another order than the scene
    const p = previewPose(scene, ['Spine', 'root', 'Hip'], reference, 15)
    // frame 15 = 0.5 s: Hip at 45° about Z (slerp), Spine at y = 2.5
    const want = [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)]
    p.rotations.subarray(8, 12).forEach((v, k) => expect(v).toBeCloseTo(want[k]!, 6))
    expect(Array.from(p.translations.subarray(0, 3))).toEqual([0, 2.5, 0])
    expect(Array.from(p.translations.subarray(3, 6))).toEqual([9, 9, 9]) // root: not animated
    expect(reference.translations[0]).toBe(9) // the reference is not modified
  })

  it('clamps past the end and counts the frames', () => {
    expect(previewFrames(scene)).toBe(30)
    expect(Array.from(previewPose(scene, ['Spine'], { rotations: new Float64Array([0, 0, 0, 1]), translations: new Float64Array(3) }, 99).translations)).toEqual([0, 3, 0])
  })
})
