/**
 * The pose editor's 3D view: a skeleton as joints (spheres) and links (lines) in a Babylon.js
 * scene, a rotation gizmo on the selected bone (in the bone's local frame), and picking.
 * Right-handed, Y up, game units (metres), like the neutral scene.
 */
import { Engine } from '@babylonjs/core/Engines/engine.js'
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js'
import { Scene } from '@babylonjs/core/scene.js'
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js'
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js'
import { Vector3, Quaternion } from '@babylonjs/core/Maths/math.vector.js'
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js'
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js'
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js'
import { RotationGizmo } from '@babylonjs/core/Gizmos/rotationGizmo.js'
import { UtilityLayerRenderer } from '@babylonjs/core/Rendering/utilityLayerRenderer.js'
import { PointerEventTypes } from '@babylonjs/core/Events/pointerEvents.js'
import '@babylonjs/core/Culling/ray.js'
import type { Quat } from '@shared/formats/re/euler'

export interface SkeletonViewEvents {
  pick(bone: number): void
  dragStart(): void
  /** The selected bone's new local rotation during a gizmo drag. */
  drag(local: Quat): void
  dragEnd(): void
}

export class SkeletonView {
  readonly engine: AbstractEngine
  readonly scene: Scene
  readonly camera: ArcRotateCamera
  private joints: Mesh[] = []
  private links: LinesMesh | null = null
  private parents: ArrayLike<number> = []
  private positions: Float64Array = new Float64Array(0)
  private rotations: Float64Array = new Float64Array(0)
  private selected = -1
  private matJoint: StandardMaterial
  private matSelected: StandardMaterial
  private parentFrame: TransformNode
  private boneNode: TransformNode
  private gizmo: RotationGizmo
  private layer: UtilityLayerRenderer
  private resizeObserver: ResizeObserver | null = null
  private jointSize = 0.02
  private ownsEngine: boolean

  /** On a canvas (the app) or on an existing engine (NullEngine in tests). */
  constructor(target: HTMLCanvasElement | AbstractEngine, private events: SkeletonViewEvents) {
    const canvas = 'getContext' in target ? target : null
    this.engine = canvas ? new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true }) : (target as AbstractEngine)
    this.ownsEngine = canvas !== null
    this.scene = new Scene(this.engine)
    this.scene.useRightHandedSystem = true
    this.scene.clearColor = new Color4(0.12, 0.13, 0.14, 1)
    this.camera = new ArcRotateCamera('cam', Math.PI / 2, Math.PI / 2.4, 3, new Vector3(0, 1, 0), this.scene)
    if (canvas) this.camera.attachControl(canvas, true)
    this.camera.wheelPrecision = 80
    this.camera.minZ = 0.01
    new HemisphericLight('sky', new Vector3(0.3, 1, 0.2), this.scene)
    this.matJoint = new StandardMaterial('joint', this.scene)
    this.matJoint.diffuseColor = new Color3(0.75, 0.78, 0.85)
    this.matSelected = new StandardMaterial('jointSel', this.scene)
    this.matSelected.diffuseColor = new Color3(1, 0.62, 0.15)
    this.matSelected.emissiveColor = new Color3(0.4, 0.2, 0)
    this.parentFrame = new TransformNode('parentFrame', this.scene)
    this.parentFrame.rotationQuaternion = Quaternion.Identity()
    this.boneNode = new TransformNode('boneNode', this.scene)
    this.boneNode.parent = this.parentFrame
    this.boneNode.rotationQuaternion = Quaternion.Identity()
    this.layer = new UtilityLayerRenderer(this.scene)
    this.gizmo = new RotationGizmo(this.layer)
    this.gizmo.updateGizmoRotationToMatchAttachedMesh = true
    this.gizmo.scaleRatio = 1.2
    this.gizmo.attachedNode = null
    this.gizmo.onDragStartObservable.add(() => this.events.dragStart())
    this.gizmo.onDragObservable.add(() => {
      const q = this.boneNode.rotationQuaternion
      if (q) this.events.drag([q.x, q.y, q.z, q.w])
    })
    this.gizmo.onDragEndObservable.add(() => this.events.dragEnd())
    this.scene.onPointerObservable.add((pi) => {
      if (pi.type !== PointerEventTypes.POINTERTAP) return
      const m = pi.pickInfo?.pickedMesh
      const bone = m?.metadata?.bone
      if (typeof bone === 'number') this.events.pick(bone)
    })
    this.engine.runRenderLoop(() => this.scene.render())
    if (canvas && typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => this.engine.resize())
      this.resizeObserver.observe(canvas)
    }
  }

  /** A new skeleton: joints, links, camera framing. */
  setSkeleton(names: string[], parents: ArrayLike<number>, positions: Float64Array): void {
    for (const j of this.joints) j.dispose()
    this.joints = []
    this.links?.dispose()
    this.links = null
    this.parents = parents
    const n = names.length
    let min = [Infinity, Infinity, Infinity]
    let max = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, positions[i * 3 + k]!)
      max[k] = Math.max(max[k]!, positions[i * 3 + k]!)
    }
    if (n === 0) {
      min = [0, 0, 0]
      max = [1, 1, 1]
    }
    const extent = Math.max(0.1, ...[0, 1, 2].map((k) => max[k]! - min[k]!))
    this.jointSize = extent * 0.012
    for (let i = 0; i < n; i++) {
      const s = CreateSphere(`joint:${names[i]}`, { diameter: this.jointSize * 2, segments: 8 }, this.scene)
      s.material = this.matJoint
      s.metadata = { bone: i }
      this.joints.push(s)
    }
    this.camera.setTarget(new Vector3((min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2))
    // Fit the skeleton in the narrower field of view (the view is often taller than wide).
    this.engine.resize()
    const vfov = this.camera.fov || 0.8
    const w = this.engine.getRenderWidth(), h = this.engine.getRenderHeight()
    const fov = Math.min(vfov, 2 * Math.atan(Math.tan(vfov / 2) * (w > 0 && h > 0 ? w / h : 1)))
    this.camera.radius = Math.max(extent * 1.8, (extent * 0.6) / Math.tan(fov / 2))
    this.camera.lowerRadiusLimit = extent * 0.05
    this.selected = -1
    this.gizmo.attachedNode = null
  }

  /** World transforms of every bone (after an edit). */
  setWorld(positions: Float64Array, rotations: Float64Array): void {
    this.positions = positions
    this.rotations = rotations
    const n = this.joints.length
    const lines: Vector3[][] = []
    for (let i = 0; i < n; i++) {
      const p = new Vector3(positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!)
      this.joints[i]!.position.copyFrom(p)
      const par = this.parents[i]!
      if (par >= 0 && par < n) lines.push([new Vector3(positions[par * 3]!, positions[par * 3 + 1]!, positions[par * 3 + 2]!), p])
    }
    if (!lines.length) lines.push([Vector3.Zero(), Vector3.Zero()])
    if (this.links && this.links.getTotalVertices() === lines.length * 2) {
      CreateLineSystem('links', { lines, instance: this.links }, this.scene)
    } else {
      this.links?.dispose()
      this.links = CreateLineSystem('links', { lines, updatable: true }, this.scene)
      this.links.color = new Color3(0.45, 0.75, 1)
      this.links.isPickable = false
    }
    this.placeGizmo()
  }

  /** Selects a bone (−1: none) and puts the gizmo on it. `local` is its current local rotation. */
  select(bone: number, localTranslation?: [number, number, number], local?: Quat): void {
    if (this.selected >= 0 && this.joints[this.selected]) this.joints[this.selected]!.material = this.matJoint
    this.selected = bone
    if (bone < 0 || !this.joints[bone]) {
      this.gizmo.attachedNode = null
      return
    }
    this.joints[bone]!.material = this.matSelected
    if (localTranslation && local) {
      this.boneNode.position.set(...localTranslation)
      this.boneNode.rotationQuaternion = new Quaternion(local[0], local[1], local[2], local[3])
    }
    this.placeGizmo()
    this.gizmo.attachedNode = this.boneNode
  }

  /** Keeps the gizmo frame in step with the selected bone's parent (unless a drag is running). */
  private placeGizmo(): void {
    const b = this.selected
    if (b < 0 || this.gizmo.isDragging) return
    const p = this.parents[b]!
    if (p >= 0 && p < this.joints.length) {
      this.parentFrame.position.set(this.positions[p * 3]!, this.positions[p * 3 + 1]!, this.positions[p * 3 + 2]!)
      this.parentFrame.rotationQuaternion = new Quaternion(this.rotations[p * 4]!, this.rotations[p * 4 + 1]!, this.rotations[p * 4 + 2]!, this.rotations[p * 4 + 3]!)
    } else {
      this.parentFrame.position.set(0, 0, 0)
      this.parentFrame.rotationQuaternion = Quaternion.Identity()
    }
  }

  /** Sets the gizmo's bone rotation from outside (numeric edits, undo) without a drag. */
  setSelectedLocal(localTranslation: [number, number, number], local: Quat): void {
    if (this.gizmo.isDragging) return
    this.boneNode.position.set(...localTranslation)
    this.boneNode.rotationQuaternion = new Quaternion(local[0], local[1], local[2], local[3])
  }

  dispose(): void {
    this.resizeObserver?.disconnect()
    this.gizmo.dispose()
    this.layer.dispose()
    this.engine.stopRenderLoop()
    this.scene.dispose()
    if (this.ownsEngine) this.engine.dispose()
  }
}
