import { describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { SkeletonView } from '../../../../../src-renderer/components/re/skeleton-view'
import { worldPose, eulerToQuat, quatCanonical, type Quat } from '../../../../../src-shared/formats/re'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

describe('SkeletonView (NullEngine)', () => {
  it('builds joints and links, follows pose changes, attaches the gizmo in the bone\'s local frame', () => {
    const engine = new NullEngine()
    const drags: Quat[] = []
    const view = new SkeletonView(engine, { pick: () => {}, dragStart: () => {}, drag: (q) => drags.push(q), dragEnd: () => {} })
    const sk = fixtureSkeleton()
    const parents = sk.map((b) => b.parent)
    const t = Float64Array.from(sk.flatMap((b) => b.translation))
    const r = Float64Array.from(sk.flatMap((b) => quatCanonical(b.rotation)))
    const w = worldPose(parents, t, r)
    view.setSkeleton(sk.map((b) => b.name), parents, w.positions)
    view.setWorld(w.positions, w.rotations)
    const joints = view.scene.meshes.filter((m) => typeof m.metadata?.bone === 'number')
    expect(joints).toHaveLength(40)
    const head = sk.findIndex((b) => b.name === 'Head')
    expect(joints[head]!.position.y).toBeCloseTo(w.positions[head * 3 + 1]!, 9)
    const links = view.scene.meshes.find((m) => m.name === 'links')!
    expect(links.getTotalVertices()).toBe(39 * 2)
    // a new pose moves the joints, reusing the line mesh
    const r2 = r.slice()
    r2.set(eulerToQuat([0, 0, 1.2]), 1 * 4) // Hip
    const w2 = worldPose(parents, t, r2)
    view.setWorld(w2.positions, w2.rotations)
    expect(joints[head]!.position.x).toBeCloseTo(w2.positions[head * 3]!, 9)
    expect(view.scene.meshes.filter((m) => m.name === 'links')).toHaveLength(1)
    // selecting a bone puts the gizmo node at its world position
    view.select(head, [t[head * 3]!, t[head * 3 + 1]!, t[head * 3 + 2]!], [r2[head * 4]!, r2[head * 4 + 1]!, r2[head * 4 + 2]!, r2[head * 4 + 3]!])
    const node = view.scene.transformNodes.find((n) => n.name === 'boneNode')!
    node.computeWorldMatrix(true)
    const p = node.getAbsolutePosition()
    expect(p.x).toBeCloseTo(w2.positions[head * 3]!, 6)
    expect(p.y).toBeCloseTo(w2.positions[head * 3 + 1]!, 6)
    expect(p.z).toBeCloseTo(w2.positions[head * 3 + 2]!, 6)
    view.dispose()
    engine.dispose()
  })
})
