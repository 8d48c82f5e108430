import { describe, expect, it } from 'vitest'
import { demoScene } from '../../../../src-shared/scene/demo'
import { mat4Multiply, transformPoint } from '../../../../src-shared/scene/math'
import { sampleWorldMatrices } from '../../../../src-shared/scene/sample'

describe('demo scene', () => {
  const s = demoScene()

  it('is skinned, textured and animated, with swaps, tracks, curves and metadata', () => {
    expect(s.skins[0].joints.length).toBeGreaterThanOrEqual(3)
    expect(s.textures.length).toBeGreaterThanOrEqual(2)
    expect(s.animations.length).toBeGreaterThanOrEqual(2)
    const interps = new Set(s.animations.flatMap((a) => a.channels.map((c) => c.interpolation)))
    expect([...interps].sort()).toEqual(['CUBICSPLINE', 'LINEAR', 'STEP'])
    expect(s.animations.some((a) => a.textureSwaps?.length)).toBe(true)
    expect(s.animations.some((a) => a.visibility?.length)).toBe(true)
    expect(s.animations.some((a) => a.uvTracks?.length)).toBe(true)
    expect(s.animations.some((a) => a.colorTracks?.length)).toBe(true)
    expect(s.curves.length).toBeGreaterThanOrEqual(1)
    expect(s.extras?.actor).toBeDefined()
  })

  it('is deterministic', () => {
    const again = demoScene()
    expect(again.meshes[0].primitives[0].positions).toEqual(s.meshes[0].primitives[0].positions)
    expect(again.textures[1].rgba).toEqual(s.textures[1].rgba)
  })

  it('binds at rest: joint world × inverse bind is the identity for every joint', () => {
    const w = sampleWorldMatrices(s, null, 0)
    s.skins[0].joints.forEach((j, k) => {
      const m = mat4Multiply(w.subarray(j * 16, j * 16 + 16), s.skins[0].inverseBindMatrices.subarray(k * 16, k * 16 + 16))
      const id = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
      m.forEach((v, i) => expect(v).toBeCloseTo(id[i], 6))
    })
  })

  it('bends: the tube top leaves the Y axis at t = 0.5 s of "bend" (three 0.5 rad turns about Z)', () => {
    const w = sampleWorldMatrices(s, s.animations[0], 0.5)
    const top = transformPoint(w.subarray(5 * 16, 5 * 16 + 16), [0, 1, 0])
    // By hand: joints at y = 0, 1 then angles 0.5, 1.0, 1.5 rad accumulated for the next segments.
    const x = -(Math.sin(0.5) + Math.sin(1.0) + Math.sin(1.5))
    const y = 1 + Math.cos(0.5) + Math.cos(1.0) + Math.cos(1.5)
    expect(top[0]).toBeCloseTo(x, 5)
    expect(top[1]).toBeCloseTo(y, 5)
  })
})
