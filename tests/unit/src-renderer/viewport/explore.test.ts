/**
 * Exploring aids on a hand-made scene whose numbers are known: a unit quad (2 triangles) at node 0
 * carried +10 along X by its one clip over 1 s, a second quad at node 1 (hidden by a visibility
 * track after 0.5 s), an empty leaf node 2 at (0, 3, 0) and a node 3 flagged `extras.marker`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { createViewportOn, type Viewport } from '../../../../src-renderer/viewport/viewport'
import { countStats, markerNodes, poseBounds } from '../../../../src-renderer/viewport/explore'
import { emptyScene, type Scene } from '../../../../src-shared/scene/types'

function quad(material: number) {
  return {
    name: `quad${material}`,
    primitives: [
      {
        positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
        indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
        material,
      },
    ],
  }
}

function handScene(): Scene {
  const s = emptyScene('hand')
  const n = (name: string, parent: number, t: [number, number, number], mesh?: number, extras?: Record<string, unknown>) =>
    s.nodes.push({ name, parent, translation: t, rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh, extras })
  n('mover', -1, [0, 0, 0], 0)
  n('blinker', -1, [0, 0, -5], 1)
  n('spawn', -1, [0, 3, 0])
  n('flagged', 0, [0.5, 0.5, 0], undefined, { marker: true })
  s.meshes.push(quad(0), quad(1))
  const rgba = new Uint8Array([255, 0, 0, 255])
  s.textures.push({ name: 't0', width: 1, height: 1, rgba, wrapS: 'repeat', wrapT: 'repeat' }, { name: 't1', width: 1, height: 1, rgba, wrapS: 'repeat', wrapT: 'repeat' })
  s.materials.push(
    { name: 'm0', baseColor: [1, 1, 1, 1], texture: 0, alphaMode: 'OPAQUE', doubleSided: false },
    { name: 'm1', baseColor: [1, 1, 1, 1], texture: 1, alphaMode: 'OPAQUE', doubleSided: true },
  )
  s.animations.push({
    name: 'slide',
    duration: 1,
    frameRate: 30,
    loop: false,
    channels: [{ node: 0, path: 'translation', times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 10, 0, 0]), interpolation: 'LINEAR' }],
    visibility: [{ node: 1, times: new Float32Array([0, 0.5]), visible: new Uint8Array([1, 0]) }],
  })
  return s
}

describe('countStats (pure)', () => {
  it('counts enabled triangle meshes, one draw per enabled mesh, distinct bound textures', () => {
    const st = countStats(
      [
        { enabled: true, indices: 36, lines: false },
        { enabled: false, indices: 600, lines: false },
        { enabled: true, indices: 8, lines: true },
        { enabled: true, indices: 0, lines: false },
      ],
      [3, 3, null, 1, undefined],
      9,
    )
    expect(st).toEqual({ triangles: 12, drawCalls: 2, textures: 2, sceneTextures: 9 })
  })
})

describe('markerNodes', () => {
  it('takes flagged nodes and empty leaves that are not joints', () => {
    const s = handScene()
    expect(markerNodes(s)).toEqual([2, 3])
    s.skins.push({ name: 'k', joints: [2], inverseBindMatrices: new Float32Array(16) })
    expect(markerNodes(s)).toEqual([3])
  })
})

describe('exploring on the viewport (NullEngine)', () => {
  let engine: NullEngine
  let vp: Viewport
  beforeEach(() => {
    engine = new NullEngine()
    vp = createViewportOn(engine)
    vp.setScene(handScene(), { mergeStatic: false })
  })
  afterEach(() => {
    vp.dispose()
    engine.dispose()
  })

  it('stats follow visibility and the textures toggle', () => {
    const p = vp.player!
    p.setTime(0)
    expect(vp.stats()).toEqual({ triangles: 4, drawCalls: 2, textures: 2, sceneTextures: 2 })
    p.setTime(0.75) // the blinker is hidden from 0.5 s
    expect(vp.stats()).toEqual({ triangles: 2, drawCalls: 1, textures: 1, sceneTextures: 2 })
    vp.setToggle('textures', false)
    expect(vp.stats()!.textures).toBe(0)
  })

  it('frames the pose shown now: at t = 1 the mover is at x 10..11, not at its rest place', () => {
    const p = vp.player!
    p.setTime(0)
    // Rest: the mover 0..1 and blinker 0..1 in x (z −5..0), the markers at x 0 and 0.5.
    expect(poseBounds(vp.built!.neutral, p)).toEqual({ min: [0, 0, -5], max: [1, 1, 0] })
    p.setTime(1)
    expect(poseBounds(vp.built!.neutral, p)).toEqual({ min: [0, 0, -5], max: [11, 1, 0] })
    vp.frame()
    // The orbit target is the centre of that box: (5.5, 0.5, −2.5).
    expect([vp.camera.target.x, vp.camera.target.y, vp.camera.target.z]).toEqual([5.5, 0.5, -2.5])
  })

  it('a clip that does not loop stops at its end and says so', () => {
    const p = vp.player!
    const states: boolean[] = []
    vp.onPlayer((s) => states.push(s.playing))
    p.setLoop(false)
    p.play()
    vp.step(0.6)
    vp.step(0.6)
    expect(p.time).toBe(1)
    expect(p.playing).toBe(false)
    expect(states.at(-1)).toBe(false)
  })

  it('draws one marker gizmo mesh for the two marker nodes, hidden with the toggle', () => {
    const m = vp.scene.getMeshByName('viewport/markers')!
    expect((m.metadata as { markers: number[] }).markers).toEqual([2, 3])
    expect(m.getTotalVertices()).toBe(2 * 3 * 2) // 2 markers × 3 axes × 2 ends
    vp.setToggle('markers', false)
    expect(m.isEnabled()).toBe(false)
  })

  it('highlights a pick with a box around the picked node’s meshes, and clears it', () => {
    vp.player!.setTime(0)
    vp.highlight({ node: 1, nodeName: 'blinker', material: 1, materialName: 'm1', point: [0, 0, -5] })
    const box = vp.scene.getMeshByName('viewport/highlight')!
    const pos = box.getVerticesData('position')!
    const xs = [...pos].filter((_, i) => i % 3 === 0), zs = [...pos].filter((_, i) => i % 3 === 2)
    expect([Math.min(...xs), Math.max(...xs), Math.min(...zs), Math.max(...zs)]).toEqual([0, 1, -5, -5])
    vp.highlight(null)
    expect(vp.scene.getMeshByName('viewport/highlight')).toBeNull()
  })

  it('backface culling follows the toggle for single-sided materials only', () => {
    const [m0, m1] = vp.built!.materials.map((m) => m.material)
    expect([m0.backFaceCulling, m1.backFaceCulling]).toEqual([true, false])
    vp.setToggle('backfaceCulling', false)
    expect([m0.backFaceCulling, m1.backFaceCulling]).toEqual([false, false])
  })

  it('fly mode starts where the orbit camera was and W moves it along the view', () => {
    vp.setView({ eye: [0, 0, 10], target: [0, 0, 0] })
    vp.setCameraMode('fly')
    expect(vp.scene.activeCamera).toBe(vp.fly.camera)
    const before = vp.getView().eye
    ;[0, 1, 2].forEach((i) => expect(before[i]).toBeCloseTo([0, 0, 10][i], 6))
    vp.fly.key('KeyW', true)
    vp.step(1)
    const after = vp.getView().eye
    expect(after[2]).toBeCloseTo(10 - vp.fly.speed, 6)
    vp.setCameraMode('orbit')
    expect(vp.scene.activeCamera).toBe(vp.camera)
    expect(vp.camera.position.z).toBeCloseTo(10 - vp.fly.speed, 6)
  })
})
