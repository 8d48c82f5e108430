/**
 * Pose editor operations behind the keyboard (pure: no DOM, no Babylon): rotating a bone about
 * one of its own axes or about an axis given in its parent's frame, copy/paste of a bone's
 * rotation with flip-paste onto the mirrored bone, and the gizmo size from the skeleton's bounds.
 * A pose is the editor's Float64Array of local rotations, x y z w per bone.
 */
import { getQuat, mirrorName, reflectX, withQuat } from '@shared/formats/re/pose-edit'
import { quatConjugate, quatFromAxisAngle, quatMultiply, quatNormalize, quatAboutAxis } from '@shared/scene/math'
import type { Quat, Vec3 } from '@shared/formats/re/euler'

/**
 * Bone `bone` of `pose` rotated by `degrees`: about its own local axis 0/1/2 (X/Y/Z, the
 * gizmo's rings: q·R), or about `axis`, a unit vector in the parent's frame (q' = R·q; the view
 * axis of a free R). Returns a new pose.
 */
export function rotateBone(pose: Float64Array, bone: number, degrees: number, axis: 0 | 1 | 2 | Vec3): Float64Array {
  const rad = (degrees * Math.PI) / 180
  const q = getQuat(pose, bone)
  if (typeof axis === 'number') return withQuat(pose, bone, quatMultiply(q, quatAboutAxis(axis, rad)))
  const len = Math.hypot(axis[0], axis[1], axis[2])
  if (!(len > 0)) return pose.slice()
  const next = quatMultiply(quatFromAxisAngle([axis[0] / len, axis[1] / len, axis[2] / len], rad), q)
  return withQuat(pose, bone, next)
}

/** A bone's copied pose (Ctrl+C): its name, local rotation and reference rotation. */
export interface CopiedBone {
  name: string
  rotation: Quat
  reference: Quat
}

export function copyBone(pose: Float64Array, reference: Float64Array, names: readonly string[], bone: number): CopiedBone | null {
  if (bone < 0 || bone >= names.length) return null
  return { name: names[bone]!, rotation: getQuat(pose, bone), reference: getQuat(reference, bone) }
}

/**
 * Pastes a copied bone pose. Plain (Ctrl+V): the copied local rotation onto bone `target`.
 * Flip (Ctrl+Shift+V): onto the copied bone's mirror (L_/R_, _L/_R, Left/Right; a centre bone
 * onto itself), reflected across the X = 0 plane — the change from the copied bone's reference,
 * d = ref⁻¹·q, becomes (dx, −dy, −dz, dw) on the mirror bone's reference. When the two
 * references are mirror images (as in RE skeletons) that is exactly (x, −y, −z, w) of the copied
 * rotation; it is the same rule as the editor's whole-pose Mirror L↔R (mirrorPose).
 * Returns the new pose and the bone written, or null when there is nowhere to paste.
 */
export function pasteBone(
  pose: Float64Array, reference: Float64Array, names: readonly string[], copied: CopiedBone, target: number, flip: boolean,
): { pose: Float64Array; bone: number } | null {
  if (!flip) return target >= 0 && target < names.length ? { pose: withQuat(pose, target, copied.rotation), bone: target } : null
  const other = mirrorName(copied.name)
  const bone = names.indexOf(other ?? copied.name)
  if (bone < 0) return null
  return { pose: withQuat(pose, bone, flipRotation(copied, getQuat(reference, bone))), bone }
}

/** The copied rotation reflected across X = 0, onto a bone whose reference rotation is `targetRef`. */
export function flipRotation(copied: CopiedBone, targetRef: Quat): Quat {
  const delta = quatMultiply(quatConjugate(quatNormalize(copied.reference)), copied.rotation)
  return quatMultiply(targetRef, reflectX(delta))
}

/** Ring thickness factor given to Babylon's rotation gizmo (its default 1 is 0.005 × scale). */
export const GIZMO_THICKNESS = 8

/** Ring diameter of Babylon's rotation gizmo at scale 1 (PlaneRotationGizmo's torus). */
export const GIZMO_RING_DIAMETER = 0.6

/**
 * Scale of the rotation gizmo (a fixed world size, not a fixed screen size): its rings span
 * `fraction` of the skeleton's bounding radius (so a 1.8 m figure framed whole gets ~0.54 m rings,
 * about a third of its height: big enough to grab at 1280×800, never dwarfing the figure; a 2 cm
 * hand rig gets ~6 mm ones). Non-finite or zero radii fall back to 1 m.
 */
export function gizmoScale(boundsRadius: number, fraction = 0.6): number {
  const r = Number.isFinite(boundsRadius) && boundsRadius > 0 ? boundsRadius : 1
  return (r * fraction) / GIZMO_RING_DIAMETER
}
