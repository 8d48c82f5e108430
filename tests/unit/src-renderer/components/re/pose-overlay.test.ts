import { afterEach, describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { PointerEventTypes, type PointerInfo } from '@babylonjs/core/Events/pointerEvents.js'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js'
import { createViewportOn, type Viewport } from '../../../../../src-renderer/viewport/viewport'
import { PoseOverlay } from '../../../../../src-renderer/components/re/pose-overlay'
import { poseScene } from '../../../../../src-renderer/components/re/pose-scene'
import { worldPose, eulerToQuat, quatCanonical, type Quat } from '../../../../../src-shared/formats/re'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'
import { gizmoScale } from '../../../../../src-renderer/components/re/pose-ops'
import { boundsRadius } from '../../../../../src-shared/scene/bounds'

const sk = fixtureSkeleton()
const names = sk.map((b) => b.name)
const parents = sk.map((b) => b.parent)
const t = Float64Array.from(sk.flatMap((b) => b.translation))
const r = Float64Array.from(sk.flatMap((b) => quatCanonical(b.rotation)))
const head = names.indexOf('Head')

let engine: NullEngine
let vp: Viewport
afterEach(() => {
  vp?.dispose()
  engine?.dispose()
})

function open(events: Partial<ConstructorParameters<typeof PoseOverlay>[1]> = {}): PoseOverlay {
  engine = new NullEngine()
  vp = createViewportOn(engine, { toggles: { skeleton: true } })
  const overlay = new PoseOverlay(vp, { pick: () => {}, dragStart: () => {}, drag: () => {}, dragEnd: () => {}, ...events })
  const shown = poseScene({ names, parents: Int32Array.from(parents), hashes: new Uint32Array(names.length), translations: t, rotations: r }, 'fx')
  vp.setScene(shown.scene)
  overlay.attach(shown.boneNodes)
  overlay.setPose(r)
  return overlay
}
const close = (a: number[] | null, b: ArrayLike<number>, off: number) => a!.forEach((v, k) => expect(v).toBeCloseTo(b[off + k]!, 6))

describe('PoseOverlay on the shared viewport (NullEngine)', () => {
  it('puts a pickable joint on every bone, at the pose editor’s world positions; no second engine or scene', () => {
    const overlay = open()
    expect(engine.scenes).toEqual([vp.scene]) // the gizmo's utility layer is a virtual scene
    expect(overlay.jointMeshes).toHaveLength(40)
    expect(overlay.jointMeshes.every((m) => m.getScene() === vp.scene && typeof m.metadata?.bone === 'number')).toBe(true)
    const w = worldPose(parents, t, r)
    close(overlay.jointPosition(head), w.positions, head * 3)
    // framed on the bones (a scene without geometry): the head is inside the bounds
    expect(vp.bounds!.max[1]).toBeCloseTo(Math.max(...Array.from({ length: 40 }, (_, i) => w.positions[i * 3 + 1]!)), 6)
  })

  it('follows pose changes: joints and the viewport’s skeleton lines', () => {
    const overlay = open()
    const r2 = r.slice()
    r2.set(eulerToQuat([0, 0, 1.2]), 1 * 4) // Hip
    overlay.setPose(r2)
    const w2 = worldPose(parents, t, r2)
    close(overlay.jointPosition(head), w2.positions, head * 3)
    const lines = vp.scene.getMeshByName('viewport/skeleton')!.getVerticesData(VertexBuffer.PositionKind)!
    const hp = Array.from(w2.positions.subarray(head * 3, head * 3 + 3))
    let found = false
    for (let i = 0; i + 2 < lines.length; i += 3) if (Math.hypot(lines[i]! - hp[0]!, lines[i + 1]! - hp[1]!, lines[i + 2]! - hp[2]!) < 1e-5) found = true
    expect(found, 'a skeleton line ends at the moved head').toBe(true)
  })

  it('puts the gizmo on the selected bone in its local frame and reports drags as local rotations', () => {
    const ev: string[] = []
    const drags: Quat[] = []
    const overlay = open({ dragStart: () => ev.push('start'), drag: (q) => drags.push(q), dragEnd: () => ev.push('end') })
    overlay.select(head)
    const node = overlay.gizmoNode!
    expect(node.name).toBe('Head')
    node.computeWorldMatrix(true)
    close([node.getAbsolutePosition().x, node.getAbsolutePosition().y, node.getAbsolutePosition().z], worldPose(parents, t, r).positions, head * 3)
    // a drag: the gizmo turns the bone node; the overlay reports its local rotation
    const q = eulerToQuat([0.2, 0.9, 0.1])
    overlay.gizmo.onDragStartObservable.notifyObservers({} as never)
    node.rotationQuaternion!.set(q[0], q[1], q[2], q[3])
    overlay.gizmo.onDragObservable.notifyObservers({} as never)
    overlay.gizmo.onDragEndObservable.notifyObservers({} as never)
    expect(ev).toEqual(['start', 'end'])
    expect(drags).toHaveLength(1)
    drags[0]!.forEach((v, k) => expect(v).toBeCloseTo(q[k]!, 6))
    overlay.select(-1)
    expect(overlay.gizmoNode).toBeNull()
  })

  it('sizes the gizmo from the skeleton: a world size (no screen scaling) of gizmoScale(bounds radius)', () => {
    const overlay = open()
    overlay.select(head)
    const x = overlay.gizmo.xGizmo
    expect(x.updateScale).toBe(false)
    expect(overlay.gizmo.scaleRatio).toBeCloseTo(gizmoScale(boundsRadius(vp.bounds!)), 9)
    vp.step(1 / 60)
    const root = (x as unknown as { _rootMesh: { scaling: { x: number } } })._rootMesh
    expect(Math.abs(root.scaling.x)).toBeCloseTo(gizmoScale(boundsRadius(vp.bounds!)), 6)
  })

  it('a tap on a joint picks its bone; dispose leaves the viewport clean', () => {
    const picks: number[] = []
    const overlay = open({ pick: (b) => picks.push(b) })
    const joint = overlay.jointMeshes[head]!
    vp.scene.onPointerObservable.notifyObservers({ type: PointerEventTypes.POINTERTAP, pickInfo: { pickedMesh: joint } } as unknown as PointerInfo, PointerEventTypes.POINTERTAP)
    expect(picks).toEqual([head])
    overlay.dispose()
    expect(vp.scene.meshes.some((m) => m.name.startsWith('re/joint'))).toBe(false)
    vp.scene.onPointerObservable.notifyObservers({ type: PointerEventTypes.POINTERTAP, pickInfo: { pickedMesh: joint } } as unknown as PointerInfo, PointerEventTypes.POINTERTAP)
    expect(picks).toEqual([head])
  })
})
