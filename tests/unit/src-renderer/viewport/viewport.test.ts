import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { createViewportOn, type Viewport } from '../../../../src-renderer/viewport/viewport'
import { demoScene } from '../../../../src-shared/scene/demo'
import { mat4Multiply, transformPoint } from '../../../../src-shared/scene/math'
import { sampleWorldMatrices } from '../../../../src-shared/scene/sample'
import { syntheticScene } from '../../../fixtures/scene/synthetic'
import { eightInfluenceScene } from '../../../fixtures/scene/oracle-scenes'
import type { Scene } from '../../../../src-shared/scene/types'
import { emptyScene } from '../../../../src-shared/scene/types'
import { eyeSwapTracks } from '../../../../src-shared/formats/stadium/eye-tracks'

/** Our own skinning of vertex v (glTF rule), from the neutral scene at time t of clip `ai`. */
function skinnedVertex(s: Scene, ai: number, t: number, v: number): number[] {
  const w = sampleWorldMatrices(s, s.animations[ai], t)
  const skin = s.skins[0]
  const p = s.meshes[0].primitives[0]
  const m = new Float64Array(16)
  for (let c = 0; c < (p.joints1 ? 8 : 4); c++) {
    const wt = c < 4 ? p.weights![v * 4 + c] : p.weights1![v * 4 + c - 4]
    if (!wt) continue
    const k = c < 4 ? p.joints![v * 4 + c] : p.joints1![v * 4 + c - 4]
    const jm = mat4Multiply(w.subarray(skin.joints[k] * 16, skin.joints[k] * 16 + 16), skin.inverseBindMatrices.subarray(k * 16, k * 16 + 16))
    for (let e = 0; e < 16; e++) m[e] += wt * jm[e]
  }
  return transformPoint(m, p.positions.subarray(v * 3, v * 3 + 3))
}

describe('viewport (NullEngine)', () => {
  let engine: NullEngine
  let vp: Viewport
  const demo = demoScene()
  beforeEach(() => {
    engine = new NullEngine()
    vp = createViewportOn(engine)
    vp.setScene(demo)
  })
  afterEach(() => {
    vp.dispose()
    engine.dispose()
  })

  it('builds one node per neutral node, in right-handed mode, and renders', () => {
    expect(vp.scene.useRightHandedSystem).toBe(true)
    expect(vp.built!.nodes.map((n) => n.name)).toEqual(demo.nodes.map((n) => n.name))
    expect(() => vp.step(0)).not.toThrow()
    expect(vp.camera.radius).toBeGreaterThan(0)
  })

  it('merges static geometry per material: ground and two pillars become two meshes', () => {
    const b = vp.built!
    // Nodes 7 (ground) and 8, 9 (pillars, one material) never move: three primitives → two meshes.
    expect(b.dynamic.slice(7)).toEqual([false, false, false])
    expect(b.stats.staticMerged).toBe(3)
    expect(b.staticMeshes.length).toBe(2)
    const pillars = b.staticMeshes.find((m) => m.material === b.materials[3].material)!
    expect(pillars.getTotalVertices()).toBe(48)
    // Baked to world space: pillar_a's box spans x 1.95..2.45 around (2.2, 0.75, −1.5).
    const pos = pillars.getVerticesData('position')!
    const xs = Array.from({ length: 24 }, (_, i) => pos[i * 3])
    expect(Math.min(...xs)).toBeCloseTo(1.95, 5)
    expect(Math.max(...xs)).toBeCloseTo(2.45, 5)
  })

  it('node world matrices follow the shared sampler at several times of each clip', () => {
    demo.animations.forEach((a, ai) => {
      vp.player!.setClip(ai)
      for (const t of [0, a.duration * 0.3, a.duration * 0.77]) {
        vp.player!.setTime(t)
        const ours = sampleWorldMatrices(demo, a, t)
        vp.built!.nodes.forEach((tn, i) => {
          const m = tn.computeWorldMatrix(true).toArray()
          for (let e = 0; e < 16; e++) expect(Math.abs(m[e] - ours[i * 16 + e]), `${a.name} t=${t} node ${i} e${e}`).toBeLessThan(1e-5)
        })
      }
    })
  })

  it.each([
    ['4 influences', demo],
    ['8 influences (joints1/weights1 in the extra buffers)', eightInfluenceScene()],
  ])('skinning: Babylon skinned vertices equal the glTF skinning rule, %s', (_, demo) => {
    vp.setScene(demo)
    vp.player!.setClip(0)
    vp.player!.setTime(0.5)
    vp.scene.render()
    const tube = vp.built!.meshes.find((m) => m.skeleton)!
    expect(tube.numBoneInfluencers).toBe(demo.meshes[0].primitives[0].joints1 ? 8 : 4)
    tube.skeleton!.prepare(true)
    const local = tube.getPositionData(true)!
    const world = tube.computeWorldMatrix(true)
    const p = demo.meshes[0].primitives[0]
    const nv = p.positions.length / 3
    let moved = 0
    for (const v of [0, 5, Math.floor(nv / 2), nv - 20, nv - 1]) {
      const ours = skinnedVertex(demo, 0, 0.5, v)
      const out = { x: 0, y: 0, z: 0 }
      const b = Matrix.FromArray(world.toArray())
      const x = local[v * 3], y = local[v * 3 + 1], z = local[v * 3 + 2]
      out.x = b.m[0] * x + b.m[4] * y + b.m[8] * z + b.m[12]
      out.y = b.m[1] * x + b.m[5] * y + b.m[9] * z + b.m[13]
      out.z = b.m[2] * x + b.m[6] * y + b.m[10] * z + b.m[14]
      expect(out.x).toBeCloseTo(ours[0], 4)
      expect(out.y).toBeCloseTo(ours[1], 4)
      expect(out.z).toBeCloseTo(ours[2], 4)
      if (Math.hypot(ours[0] - p.positions[v * 3], ours[1] - p.positions[v * 3 + 1]) > 0.1) moved++
    }
    expect(moved).toBeGreaterThan(0) // the check is not trivially at rest
  })

  it('texture-swap, colour, UV and visibility tracks play; textures toggle', () => {
    const b = vp.built!
    const player = vp.player!
    player.setClip(0)
    player.setTime(0.2)
    expect(b.materials[0].material.diffuseTexture?.name).toBe('tube_warm')
    player.setTime(1.2)
    expect(b.materials[0].material.diffuseTexture?.name).toBe('tube_cool')
    player.setTime(1)
    const c = b.materials[1].material.diffuseColor
    expect([c.r, c.g, c.b].map((x) => +x.toFixed(4))).toEqual([1, 0.9, 0.1])
    expect(b.materials[1].material.alpha).toBeCloseTo(0.9, 5)
    player.setClip(1)
    player.setTime(1.5)
    expect((b.materials[2].material.diffuseTexture as unknown as { uOffset: number }).uOffset).toBeCloseTo(0.5, 5)
    expect(b.nodes[6].isEnabled()).toBe(false)
    player.setTime(2.3)
    expect(b.nodes[6].isEnabled()).toBe(true)
    vp.setToggle('textures', false)
    expect(b.materials[0].material.diffuseTexture).toBeNull()
    vp.setToggle('textures', true)
    expect(b.materials[0].material.diffuseTexture).not.toBeNull()
  })

  it('toggles: wireframe, lighting, skeleton, bounds, curves, grid', () => {
    vp.setToggle('wireframe', true)
    expect(vp.scene.forceWireframe).toBe(true)
    vp.setToggle('lighting', false)
    expect(vp.built!.materials[0].material.disableLighting).toBe(true)
    vp.setToggle('lighting', true)
    expect(vp.built!.materials[0].material.disableLighting).toBe(false)
    expect(vp.built!.materials[2].material.disableLighting).toBe(true) // unlit material stays unlit
    const byName = (n: string) => vp.scene.meshes.find((m) => m.name === n)!
    vp.setToggle('skeleton', true)
    expect(byName('viewport/skeleton').isEnabled()).toBe(true)
    vp.setToggle('bounds', true)
    expect(byName('viewport/bounds').isEnabled()).toBe(true)
    vp.setToggle('curves', false)
    expect(byName('viewport/curve/helix').isEnabled()).toBe(false)
    expect(byName('viewport/curve/ring').parent).toBe(vp.built!.nodes[0])
    vp.setToggle('grid', false)
    expect(byName('viewport/grid').isEnabled()).toBe(false)
  })

  it('skeleton overlay draws bones from joint to joint at the posed positions', () => {
    vp.setToggle('skeleton', true)
    vp.player!.setClip(0)
    vp.player!.setTime(0.5)
    const w = sampleWorldMatrices(demo, demo.animations[0], 0.5)
    const vb = vp.scene.meshes.find((m) => m.name === 'viewport/skeleton')!.getVerticesData('position')!
    // First segment: bone0 (node 2) → bone1 (node 3); third: bone2 → bone3.
    expect(Array.from(vb.slice(0, 6)).map((x) => +x.toFixed(4))).toEqual([...w.slice(2 * 16 + 12, 2 * 16 + 15), ...w.slice(3 * 16 + 12, 3 * 16 + 15)].map((x) => +x.toFixed(4)))
    expect(Array.from(vb.slice(15, 18)).map((x) => +x.toFixed(4))).toEqual(Array.from(w.slice(5 * 16 + 12, 5 * 16 + 15)).map((x) => +x.toFixed(4)))
  })

  it('player: frames, scrubbing, looping and one-shot clips', () => {
    const p = vp.player!
    p.setClip(0)
    expect(p.frameCount).toBe(60)
    p.setFrame(15)
    expect(p.time).toBeCloseTo(0.5)
    expect(p.frame).toBe(15)
    p.play()
    vp.step(1.75) // 0.5 + 1.75 = 2.25 → wraps to 0.25
    expect(p.time).toBeCloseTo(0.25)
    p.setSpeed(2)
    vp.step(0.5)
    expect(p.time).toBeCloseTo(1.25)
    p.setClip(2) // 'hop' does not loop
    expect(p.loop).toBe(false)
    p.play()
    vp.step(5)
    expect(p.time).toBe(1)
    expect(p.playing).toBe(false)
    const seen: number[] = []
    const off = vp.onPlayer((s) => seen.push(s.frame))
    p.setFrame(6)
    off()
    expect(seen).toEqual([6])
  })

  it('merges the primitives of one moving or skinned node per material', () => {
    const s = demoScene()
    const tube = s.meshes[0].primitives[0]
    s.meshes[0].primitives.push({ ...tube })
    const cap = s.meshes[1].primitives[0]
    s.meshes[1].primitives.push({ ...cap }, { ...cap, material: 3 })
    vp.setScene(s)
    const b = vp.built!
    const skinned = b.meshes.filter((m) => m.skeleton)
    expect(skinned.length).toBe(1)
    const nv = tube.positions.length / 3
    expect(skinned[0].getTotalVertices()).toBe(2 * nv)
    const capMeshes = b.meshes.filter((m) => m.parent === b.nodes[6])
    expect(capMeshes.map((m) => m.getTotalVertices()).sort()).toEqual([24, 48])
    // The second copy of the tube skins like the first.
    vp.player!.setClip(0)
    vp.player!.setTime(0.5)
    vp.scene.render()
    skinned[0].skeleton!.prepare(true)
    const local = skinned[0].getPositionData(true)!
    const w = skinned[0].computeWorldMatrix(true).m
    const v = nv + 7
    const x = local[v * 3], y = local[v * 3 + 1], z = local[v * 3 + 2]
    const ours = skinnedVertex(s, 0, 0.5, 7)
    expect(w[0] * x + w[4] * y + w[8] * z + w[12]).toBeCloseTo(ours[0], 4)
    expect(w[1] * x + w[5] * y + w[9] * z + w[13]).toBeCloseTo(ours[1], 4)
  })

  it('copes with scenes without geometry: empty, or curves only', () => {
    vp.setScene(emptyScene('nothing'))
    expect(vp.bounds).toBeNull()
    expect(vp.player!.animation).toBeNull()
    vp.step(0.1)
    const s = emptyScene('track only')
    s.curves.push({ name: 'track', points: new Float32Array([0, 0, 0, 100, 0, 0, 100, 0, 50]) })
    vp.setScene(s)
    expect(vp.bounds).toEqual({ min: [0, 0, 0], max: [100, 0, 50] })
    expect(vp.camera.target.x).toBeCloseTo(50)
    vp.step(0.1)
  })

  it('skinning with joints under different roots and no skeleton node', () => {
    const s = demoScene()
    s.nodes.push({ name: 'loose_joint', parent: -1, translation: [1, 0.5, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })
    const skin = s.skins[0]
    skin.joints.push(s.nodes.length - 1)
    const ibm = new Float32Array(skin.inverseBindMatrices.length + 16)
    ibm.set(skin.inverseBindMatrices)
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -0.5, 0, 1], skin.inverseBindMatrices.length)
    skin.inverseBindMatrices = ibm
    delete skin.skeleton
    const p = s.meshes[0].primitives[0]
    p.joints![1] = 4
    p.weights!.set([0.5, 0.5, 0, 0], 0)
    // The loose joint moves in the first clip.
    s.animations[0].channels.push({ node: s.nodes.length - 1, path: 'translation', times: new Float32Array([0, 1]), values: new Float32Array([1, 0.5, 0, 2, 1.5, 0]), interpolation: 'LINEAR' })
    vp.setScene(s)
    vp.player!.setClip(0)
    vp.player!.setTime(0.5)
    vp.scene.render()
    const tube = vp.built!.meshes.find((m) => m.skeleton)!
    tube.skeleton!.prepare(true)
    const local = tube.getPositionData(true)!
    const w = tube.computeWorldMatrix(true).m
    for (const v of [0, 40, 100]) {
      const ours = skinnedVertex(s, 0, 0.5, v)
      const x = local[v * 3], y = local[v * 3 + 1], z = local[v * 3 + 2]
      expect(w[0] * x + w[4] * y + w[8] * z + w[12]).toBeCloseTo(ours[0], 4)
      expect(w[1] * x + w[5] * y + w[9] * z + w[13]).toBeCloseTo(ours[1], 4)
      expect(w[2] * x + w[6] * y + w[10] * z + w[14]).toBeCloseTo(ours[2], 4)
    }
  })

  it('picks what is under a pixel: merged static geometry by material, moving nodes by node', () => {
    vp.setToggle('curves', false)
    vp.step(0)
    const at = (p: number[]) => {
      const w = engine.getRenderWidth()
      const h = engine.getRenderHeight()
      const v = Vector3.Project(new Vector3(p[0], p[1], p[2]), Matrix.Identity(), vp.scene.getTransformMatrix(), vp.camera.viewport.toGlobal(w, h))
      return vp.pick(v.x, v.y)
    }
    // The near face of pillar_a (static, merged) and the cap on the last bone (a moving node).
    const pillar = at([2.2, 0.75, -1.25])
    expect(pillar).toMatchObject({ node: -1, materialName: 'pillar' })
    const cap = at([0, 4.4, 0])
    expect(cap).toMatchObject({ node: 6, nodeName: 'cap', materialName: 'cap' })
    expect(vp.pick(1, 1)).toBeNull() // the sky in the top-left corner
  })

  it('a pick passes through the back of a culled face (a skybox seen from outside), not through a double-sided one', () => {
    // A blocker quad at z = 1 whose front faces −z (away from the camera at +z), before a target quad at z = 0 facing +z.
    const quad = (z: number, flip: boolean, material: number) => ({
      positions: new Float32Array([-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z]),
      indices: new Uint32Array(flip ? [0, 2, 1, 0, 3, 2] : [0, 1, 2, 0, 2, 3]),
      material,
    })
    const make = (doubleSided: boolean): Scene => ({
      ...emptyScene('cull'),
      materials: [
        { name: 'target', baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided: false },
        { name: 'blocker', baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided },
      ],
      meshes: [{ name: 'target', primitives: [quad(0, false, 0)] }, { name: 'blocker', primitives: [quad(1, true, 1)] }],
      nodes: [
        { name: 'target', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: 0 },
        { name: 'blocker', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: 1 },
      ],
    })
    const centre = () => vp.pick(engine.getRenderWidth() / 2, engine.getRenderHeight() / 2)
    vp.setScene(make(false))
    vp.setView({ eye: [0, 0, 10], target: [0, 0, 0] })
    vp.step(0)
    expect(centre()?.materialName).toBe('target')
    vp.setScene(make(true))
    vp.setView({ eye: [0, 0, 10], target: [0, 0, 0] })
    vp.step(0)
    expect(centre()?.materialName).toBe('blocker')
  })

  it('starts on the clip named by extras.selectedAnimation', () => {
    const s = demoScene()
    s.extras = { ...s.extras, selectedAnimation: 2 }
    vp.setScene(s)
    expect(vp.player!.clip).toBe(2)
    expect(vp.player!.animation!.name).toBe('hop')
  })

  it('replacing the scene disposes the previous one', () => {
    const before = vp.scene.meshes.length
    vp.setScene(demoScene())
    expect(vp.scene.meshes.length).toBe(before)
    vp.setScene(null)
    expect(vp.built).toBeNull()
    expect(vp.scene.meshes.length).toBe(0)
  })

  it('a large synthetic scene: skinned mesh plus static boxes merged per material', () => {
    const s = syntheticScene({ triangles: 20_000, bones: 30, statics: 40, materials: 4 })
    vp.setScene(s)
    const b = vp.built!
    expect(b.staticMeshes.length).toBe(4)
    expect(b.stats.staticMerged).toBe(40)
    expect(b.skeletons[0].bones.length).toBe(30)
    vp.player!.play()
    vp.step(0.1)
  })

  it('plays a game counter: whole-frame clip looping to its frame 2, eyes on their own counter', () => {
    // 5 frames (0..4) of node 0 moving x = frame, looping to frame 2; eyes: 3 frames, loop from 1
    const s = demoScene()
    const times = Float32Array.from([0, 1, 2, 3, 4], (f) => f / 30)
    const values = new Float32Array(15)
    for (let f = 0; f < 5; f++) values[f * 3] = f
    s.animations = [{
      name: 'game', duration: 4 / 30, frameRate: 30, loop: true, loopStart: 2 / 30, integerFrames: true,
      channels: [{ node: 0, path: 'translation', times, values, interpolation: 'LINEAR' }],
      textureSwaps: eyeSwapTracks({ frames: 3, startFrame: 0, loopStartFrame: 1, hold: false, tracks: [{ material: 0, textures: [0, 1, 0] }] }, 30),
    }]
    vp.setScene(s)
    const p = vp.player!
    p.play()
    const seen: [number, number, number | undefined][] = []
    for (let k = 0; k < 8; k++) {
      seen.push([p.frame, Math.round(vp.built!.nodes[0].position.x * 1000) / 1000, vp.built!.materials[0].texture])
      vp.step(1 / 30)
    }
    // skeleton 0 1 2 3 4 2 3 4 (no in-between poses); eye frames 0 1 2 1 2 1 2 1 → textures 0 1 0 1 0 1 0 1
    expect(seen).toEqual([[0, 0, 0], [1, 1, 1], [2, 2, 0], [3, 3, 1], [4, 4, 0], [2, 2, 1], [3, 3, 0], [4, 4, 1]])
    // a scrub moves the clip, not the eyes' counter; selecting the clip again restarts both
    vp.step(1 / 30) // tick 9: eye frame 1 + (9 − 3) mod 2 = 1 → texture 1
    p.setFrame(0)
    expect(vp.built!.nodes[0].position.x).toBe(0)
    expect(vp.built!.materials[0].texture).toBe(1)
    p.setClip(0)
    expect(vp.built!.materials[0].texture).toBe(0)
  })
})
