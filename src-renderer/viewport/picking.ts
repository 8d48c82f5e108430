/**
 * What is under a canvas pixel, as the user sees it: the nearest face that is not the back of a
 * face its material culls (a skybox seen from outside is see-through), on meshes of the neutral
 * scene that are shown.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js'
import type { Ray } from '@babylonjs/core/Culling/ray.js'
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import '@babylonjs/core/Culling/ray.js' // side effect: scene.pick
import type { BuiltScene, MeshInfo } from './build'
import type { PickInfo } from './types'

/**
 * Picking predicates that skip the back of faces whose material culls them. Babylon tests a mesh's
 * triangles right after accepting the mesh, in mesh space: the mesh predicate notes the mesh, the
 * triangle predicate compares the counter-clockwise normal with the ray (reversed under a
 * mirroring world matrix, which turns the winding over).
 */
function frontFaces(): { mesh(m: AbstractMesh): boolean; triangle(p0: Vector3, p1: Vector3, p2: Vector3, ray: Ray): boolean } {
  let cull = false
  let sign = 1
  const e1 = new Vector3(), e2 = new Vector3(), n = new Vector3()
  return {
    mesh(m) {
      cull = !!m.material?.backFaceCulling
      sign = m.getWorldMatrix().determinant() < 0 ? -1 : 1
      return true
    },
    triangle(p0, p1, p2, ray) {
      if (!cull) return true
      p1.subtractToRef(p0, e1)
      p2.subtractToRef(p0, e2)
      Vector3.CrossToRef(e1, e2, n)
      return sign * Vector3.Dot(n, ray.direction) < 0
    },
  }
}

/** The neutral node and material under canvas pixel (x, y), or null. */
export function pickAt(scene: BScene, built: BuiltScene, x: number, y: number): PickInfo | null {
  const front = frontFaces()
  const hit = scene.pick(x, y, (m) => !!(m.metadata as { modbench?: MeshInfo } | null)?.modbench && m.isEnabled() && m.isVisible && front.mesh(m), false, null, front.triangle)
  const info = (hit?.pickedMesh?.metadata as { modbench?: MeshInfo } | null)?.modbench
  if (!hit?.hit || !info || !hit.pickedPoint) return null
  const n = built.neutral
  return {
    node: info.node,
    nodeName: info.node >= 0 ? n.nodes[info.node]?.name ?? null : null,
    material: info.material,
    materialName: n.materials[info.material]?.name ?? null,
    point: [hit.pickedPoint.x, hit.pickedPoint.y, hit.pickedPoint.z],
    mesh: hit.pickedMesh ?? undefined,
  }
}
