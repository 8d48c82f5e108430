/**
 * The pose editor's overlay on the shared viewport: the skeleton itself is the viewport's
 * neutral scene (one node per bone, `skeletonScene`, drawn by its skeleton overlay); this adds
 * pickable joint spheres on the bone nodes, the selected-bone highlight and a rotation gizmo in
 * the selected bone's local frame, and poses the bone nodes. No engine or scene of its own.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color3 } from '@babylonjs/core/Maths/math.color.js'
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js'
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js'
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import { RotationGizmo } from '@babylonjs/core/Gizmos/rotationGizmo.js'
import { UtilityLayerRenderer } from '@babylonjs/core/Rendering/utilityLayerRenderer.js'
import { PointerEventTypes } from '@babylonjs/core/Events/pointerEvents.js'
import type { Observer } from '@babylonjs/core/Misc/observable.js'
import type { PointerInfo } from '@babylonjs/core/Events/pointerEvents.js'
import '@babylonjs/core/Culling/ray.js'
import type { Quat } from '@shared/formats/re/euler'
import { boundsRadius } from '@shared/scene/bounds'
import type { Viewport } from '../../viewport/viewport'
import { gizmoScale, GIZMO_THICKNESS } from './pose-ops'

export interface PoseOverlayEvents {
  pick(bone: number): void
  dragStart(): void
  /** The selected bone's new local rotation during a gizmo drag. */
  drag(local: Quat): void
  dragEnd(): void
}

export class PoseOverlay {
  private joints: Mesh[] = []
  /** Viewport node of each bone (the built scene's TransformNodes). */
  private boneNodes: TransformNode[] = []
  private selected = -1
  private readonly matJoint: StandardMaterial
  private readonly matSelected: StandardMaterial
  private readonly layer: UtilityLayerRenderer
  /** The rotation gizmo (on the selected bone, in its local frame). */
  readonly gizmo: RotationGizmo
  private readonly pointer: Observer<PointerInfo> | null

  constructor(private readonly vp: Viewport, private readonly events: PoseOverlayEvents) {
    const scene: BScene = vp.scene
    this.matJoint = new StandardMaterial('re/joint', scene)
    this.matJoint.diffuseColor = new Color3(0.75, 0.78, 0.85)
    this.matSelected = new StandardMaterial('re/jointSelected', scene)
    this.matSelected.diffuseColor = new Color3(1, 0.62, 0.15)
    this.matSelected.emissiveColor = new Color3(0.4, 0.2, 0)
    this.layer = new UtilityLayerRenderer(scene)
    // Rings 8× Babylon's default thickness: at a skeleton-sized scale (~0.5) the default torus
    // (0.005 × scale) would be thinner than a pixel at the framed view.
    this.gizmo = new RotationGizmo(this.layer, 32, false, GIZMO_THICKNESS)
    this.gizmo.updateGizmoRotationToMatchAttachedMesh = true
    // A world size from the skeleton's bounds (set in attach), not a constant screen size.
    this.gizmo.updateScale = false
    this.gizmo.scaleRatio = gizmoScale(1)
    this.gizmo.attachedNode = null
    this.gizmo.onDragStartObservable.add(() => this.events.dragStart())
    this.gizmo.onDragObservable.add(() => {
      const q = this.selected >= 0 ? this.boneNodes[this.selected]?.rotationQuaternion : null
      if (q) this.events.drag([q.x, q.y, q.z, q.w])
      this.vp.poseChanged()
    })
    this.gizmo.onDragEndObservable.add(() => this.events.dragEnd())
    this.pointer = scene.onPointerObservable.add((pi) => {
      if (pi.type !== PointerEventTypes.POINTERTAP) return
      const bone = pi.pickInfo?.pickedMesh?.metadata?.bone
      if (typeof bone === 'number') this.events.pick(bone)
    })
  }

  /**
   * Puts joints on the bones of the viewport's current scene (call after `vp.setScene` with a
   * skeleton scene); `nodeOfBone` maps bone indices to its nodes.
   */
  attach(nodeOfBone: ArrayLike<number>): void {
    this.clearJoints()
    const built = this.vp.built
    if (!built) return
    this.boneNodes = Array.from(nodeOfBone, (ni) => built.nodes[ni]!)
    const radius = this.vp.bounds ? boundsRadius(this.vp.bounds) : 1
    const size = Math.max(0.05, radius * 2) * 0.012
    this.gizmo.scaleRatio = gizmoScale(radius)
    this.boneNodes.forEach((node, b) => {
      const s = CreateSphere(`re/joint:${node.name}`, { diameter: size * 2, segments: 8 }, this.vp.scene)
      s.material = this.matJoint
      s.metadata = { bone: b }
      s.parent = node
      this.joints.push(s)
    })
  }

  /** Poses the bones: local rotations, x y z w per bone (the gizmo keeps its bone while dragging). */
  setPose(rotations: ArrayLike<number>): void {
    this.boneNodes.forEach((node, b) => {
      if (b === this.selected && this.gizmo.isDragging) return
      const q = node.rotationQuaternion ?? (node.rotationQuaternion = new Quaternion())
      q.set(rotations[b * 4]!, rotations[b * 4 + 1]!, rotations[b * 4 + 2]!, rotations[b * 4 + 3]!)
    })
    this.vp.poseChanged()
  }

  /** Selects a bone (−1: none) and puts the gizmo on it. */
  select(bone: number): void {
    if (this.selected >= 0 && this.joints[this.selected]) this.joints[this.selected]!.material = this.matJoint
    this.selected = bone >= 0 && bone < this.boneNodes.length ? bone : -1
    if (this.selected < 0) {
      this.gizmo.attachedNode = null
      return
    }
    this.joints[this.selected]!.material = this.matSelected
    this.gizmo.attachedNode = this.boneNodes[this.selected]!
  }

  /**
   * The camera's viewing direction in the frame of the bone's parent (the axis a free R
   * rotates about, applied as R·q to the bone's local rotation), or null.
   */
  viewAxis(bone: number): [number, number, number] | null {
    const node = this.boneNodes[bone]
    if (!node) return null
    const cam = this.vp.camera
    const dir = cam.getTarget().subtract(cam.position).normalize()
    const parent = node.parent as TransformNode | null
    const inv = parent ? parent.computeWorldMatrix(true).clone().invert() : Matrix.Identity()
    const d = Vector3.TransformNormal(dir, inv).normalize()
    return [d.x, d.y, d.z]
  }

  /** World position of a bone's joint (tests). */
  jointPosition(bone: number): [number, number, number] | null {
    const j = this.joints[bone]
    if (!j) return null
    j.computeWorldMatrix(true)
    const p = j.getAbsolutePosition()
    return [p.x, p.y, p.z]
  }

  /** The node the gizmo is on (tests). */
  get gizmoNode(): TransformNode | null {
    return (this.gizmo.attachedNode as TransformNode | null) ?? null
  }

  /** The joint meshes, one per bone (pickable, `metadata.bone`). */
  get jointMeshes(): readonly Mesh[] {
    return this.joints
  }

  private clearJoints(): void {
    this.gizmo.attachedNode = null
    for (const j of this.joints) j.dispose()
    this.joints = []
    this.boneNodes = []
    this.selected = -1
  }

  dispose(): void {
    this.clearJoints()
    if (this.pointer) this.vp.scene.onPointerObservable.remove(this.pointer)
    this.gizmo.dispose()
    this.layer.dispose()
    this.matJoint.dispose()
    this.matSelected.dispose()
  }
}
