/**
 * The game's matrix chain (pokemon-stadium.md §11; pret `src/F420.c` func_8000F730 joint basis,
 * func_8000F5A8 TRS, func_8000F2C4 ZXY basis, func_8000FBB0 multiply, func_8000FDE4 row scale;
 * `src/12D80.c` func_800143C0 joint draw with the separate scale stack).
 *
 * Matrices are the game's MtxF: row-vector convention, p' = p·M, translation in row 3, stored
 * row-major; the same 16 numbers are the column-major (glTF) array of the transform.
 */
import type { Level, Bone } from './model-graph'
import type { Vec3 } from './geo-layout'
import { mat4FromEulerExtrinsicXYZ, mat4FromEulerExtrinsicZXY, mat4Identity, mat4Multiply, mat4ScaleColumns, quatFromEulerIntrinsic, type Quat } from '../../scene/math'

export type Mat = Float64Array

/**
 * Binary angle → radians. 'game' drops the low 4 bits like the game's 4096-entry sin table
 * (SINS/COSS index `(u16)a >> 4`, pret include/math.h); 'exact' uses the full 16 bits.
 */
export type TrigMode = 'game' | 'exact'
export function angleToRadians(a: number, trig: TrigMode = 'game'): number {
  const u = a & 0xffff
  return trig === 'game' ? ((u >> 4) * 2 * Math.PI) / 4096 : (u * Math.PI) / 32768
}

const rad = (r: Vec3, trig: TrigMode): Vec3 => [angleToRadians(r[0], trig), angleToRadians(r[1], trig), angleToRadians(r[2], trig)]

/** Row-vector product A·B (apply A, then B): the kit's column-major B·A. */
const mul = (a: Mat, b: Mat): Mat => mat4Multiply(b, a)

/** Joint basis (func_8000F730): Rx then Ry then Rz, rows as in §11.3; translation row 3. */
export function jointBasis(r: Vec3, t: Vec3, trig: TrigMode = 'game'): Mat {
  return mat4FromEulerExtrinsicXYZ(rad(r, trig), t)
}

/** ZXY basis (func_8000F2C4), used by 0x1B/0x20: Rz then Rx then Ry (§11.5). */
export function zxyBasis(r: Vec3, t: Vec3, trig: TrigMode = 'game'): Mat {
  return mat4FromEulerExtrinsicZXY(rad(r, trig), t)
}

/** Quaternion [x,y,z,w] of the joint basis: q = qz ⊗ qy ⊗ qx (§11.3). */
export function jointQuat(r: Vec3, trig: TrigMode = 'game'): Quat {
  return quatFromEulerIntrinsic(rad(r, trig), 'ZYX')
}

/** Quaternion of the ZXY basis: q = qy ⊗ qx ⊗ qz (§11.5). */
export function zxyQuat(r: Vec3, trig: TrigMode = 'game'): Quat {
  return quatFromEulerIntrinsic(rad(r, trig), 'YXZ')
}

/** A joint's (t, r, s) at some frame: bind values or animated ones. */
export interface JointPose {
  t: Vec3
  r: Vec3
  s: Vec3
}

export interface PoseResult {
  /** Draw matrix M per level (what DLs and skinning use). */
  M: Mat[]
  /** Unscaled matrix U per level (mode-0 joints only, else null). */
  U: (Mat | null)[]
  /** True when the level was pushed by a mode-0 joint. */
  sepScale: boolean[]
  /** Top of the scale stack at each level (the accumulated scale of the nearest mode-0 joint). */
  acc: Vec3[]
}

/**
 * The world ("draw") matrices of every level (§11.4), in level order (parents first). The
 * instance matrix is the identity. `pose(bone)` gives each joint's t/r/s.
 */
export function poseMatrices(levels: Level[], bones: Bone[], pose: (bone: number) => JointPose, trig: TrigMode = 'game'): PoseResult {
  const M: Mat[] = []
  const U: (Mat | null)[] = []
  const sep: boolean[] = []
  const acc: Vec3[] = []
  for (const l of levels) {
    const p = l.parent
    if (l.kind === 'root') {
      M.push(mat4Identity()); U.push(null); sep.push(false); acc.push([1, 1, 1])
      continue
    }
    const Mp = M[p]!
    if (l.kind === 'scale') {
      M.push(mat4ScaleColumns(Mp, l.scale!)); U.push(null); sep.push(false); acc.push(acc[p]!)
    } else if (l.kind === 'transform') {
      M.push(mul(zxyBasis(l.rotation!, l.translation!, trig), Mp)); U.push(null); sep.push(false); acc.push(acc[p]!)
    } else {
      const b = bones[l.bone]!
      const { t, r, s } = pose(b.index)
      if (b.mode === 0) {
        const a = acc[p]!
        const L = jointBasis(r, [t[0] * a[0], t[1] * a[1], t[2] * a[2]], trig)
        const P = sep[p] ? U[p]! : Mp
        const u = mul(L, P)
        const a2: Vec3 = [a[0] * s[0], a[1] * s[1], a[2] * s[2]]
        M.push(mat4ScaleColumns(u, a2)); U.push(u); sep.push(true); acc.push(a2)
      } else {
        // mode 1 (and billboards offline): ordinary T·R·S local matrix times the parent's draw matrix
        const L = mat4ScaleColumns(jointBasis(r, t, trig), s)
        M.push(mul(L, Mp)); U.push(null); sep.push(false); acc.push(acc[p]!)
      }
    }
  }
  return { M, U, sepScale: sep, acc }
}

/** Local TRS of the glTF nodes that reproduce the chain (§16.1): pivot (T, R, S) and leaf scale per level. */
export interface LevelLocal {
  pivotT: Vec3
  pivotR: Quat
  pivotS: Vec3
  leafS: Vec3
}

export function levelLocals(levels: Level[], bones: Bone[], pose: (bone: number) => JointPose, trig: TrigMode = 'game'): LevelLocal[] {
  const acc: Vec3[] = []
  const out: LevelLocal[] = []
  for (const l of levels) {
    const p = l.parent
    const one: Vec3 = [1, 1, 1]
    if (l.kind === 'root') {
      acc.push(one)
      out.push({ pivotT: [0, 0, 0], pivotR: [0, 0, 0, 1], pivotS: one, leafS: one })
    } else if (l.kind === 'scale') {
      acc.push(acc[p]!)
      out.push({ pivotT: [0, 0, 0], pivotR: [0, 0, 0, 1], pivotS: [...l.scale!], leafS: one })
    } else if (l.kind === 'transform') {
      acc.push(acc[p]!)
      out.push({ pivotT: [...l.translation!], pivotR: zxyQuat(l.rotation!, trig), pivotS: one, leafS: one })
    } else {
      const b = bones[l.bone]!
      const { t, r, s } = pose(b.index)
      if (b.mode === 0) {
        const a = acc[p]!
        const a2: Vec3 = [a[0] * s[0], a[1] * s[1], a[2] * s[2]]
        acc.push(a2)
        out.push({ pivotT: [t[0] * a[0], t[1] * a[1], t[2] * a[2]], pivotR: jointQuat(r, trig), pivotS: one, leafS: a2 })
      } else {
        acc.push(acc[p]!)
        out.push({ pivotT: [...t], pivotR: jointQuat(r, trig), pivotS: [...s], leafS: one })
      }
    }
  }
  return out
}
