/**
 * Pose editing helpers shared by the pose editor UI and tests: an undo/redo history of whole
 * poses (a gizmo drag is one step), left↔right mirroring, and forward kinematics for display.
 * A pose is a Float64Array of local rotations, x y z w per skeleton bone.
 */
import { quatCanonical, quatConjugate, quatMultiply, quatNormalize, quatRotateVec3, type Quat } from '../../scene/math'

// ---- history ----------------------------------------------------------------------------

export class PoseHistory {
  private undoStack: Float64Array[] = []
  private redoStack: Float64Array[] = []
  private cur: Float64Array
  private saved: Float64Array
  private dragStart: Float64Array | null = null
  /** Bound on kept steps (memory). */
  readonly limit: number

  constructor(initial: Float64Array, limit = 500) {
    this.cur = initial.slice()
    this.saved = initial.slice()
    this.limit = limit
  }

  get current(): Float64Array {
    return this.cur
  }
  get canUndo(): boolean {
    return this.undoStack.length > 0 && this.dragStart === null
  }
  get canRedo(): boolean {
    return this.redoStack.length > 0 && this.dragStart === null
  }
  get dragging(): boolean {
    return this.dragStart !== null
  }
  /** True when the pose differs from the last saved (or initial) one. */
  get dirty(): boolean {
    return !samePose(this.cur, this.saved)
  }

  /** One undoable change. No-op when nothing changed. */
  apply(next: Float64Array): void {
    if (this.dragStart) this.endDrag()
    if (samePose(next, this.cur)) return
    this.push(this.cur)
    this.cur = next.slice()
  }

  /** Starts a continuous edit (gizmo drag): updates during it are not separate steps. */
  beginDrag(): void {
    if (!this.dragStart) this.dragStart = this.cur.slice()
  }
  /** A live value during a drag (or a plain apply when no drag is running). */
  update(next: Float64Array): void {
    if (!this.dragStart) return this.apply(next)
    this.cur = next.slice()
  }
  /** Ends the drag: the whole drag becomes one undo step. */
  endDrag(): void {
    const start = this.dragStart
    if (!start) return
    this.dragStart = null
    if (!samePose(start, this.cur)) this.push(start)
  }

  undo(): boolean {
    if (this.dragStart) this.endDrag()
    const prev = this.undoStack.pop()
    if (!prev) return false
    this.redoStack.push(this.cur)
    this.cur = prev
    return true
  }
  redo(): boolean {
    if (this.dragStart) this.endDrag()
    const next = this.redoStack.pop()
    if (!next) return false
    this.undoStack.push(this.cur)
    this.cur = next
    return true
  }
  /** Records the current pose as saved (clears `dirty`). */
  markSaved(): void {
    this.saved = this.cur.slice()
  }
  /** Replaces everything (a new template or pose file): history cleared, not dirty. */
  reset(pose: Float64Array): void {
    this.undoStack = []
    this.redoStack = []
    this.dragStart = null
    this.cur = pose.slice()
    this.saved = pose.slice()
  }

  private push(p: Float64Array): void {
    this.undoStack.push(p)
    if (this.undoStack.length > this.limit) this.undoStack.shift()
    this.redoStack = []
  }
}

export function samePose(a: Float64Array, b: Float64Array, eps = 1e-12): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > eps) return false
  return true
}

export function getQuat(pose: Float64Array, i: number): Quat {
  return [pose[i * 4]!, pose[i * 4 + 1]!, pose[i * 4 + 2]!, pose[i * 4 + 3]!]
}

/** A copy of `pose` with bone i set to q (normalised, w ≥ 0). */
export function withQuat(pose: Float64Array, i: number, q: Quat): Float64Array {
  const out = pose.slice()
  out.set(quatCanonical(q), i * 4)
  return out
}

// ---- mirroring --------------------------------------------------------------------------

/** The opposite side's name (L_Hand ↔ R_Hand, Arm_L ↔ Arm_R, LeftFoot ↔ RightFoot), or null. */
export function mirrorName(name: string): string | null {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^([LR])_/, (m) => (m[1] === 'L' ? 'R_' : 'L_') + name.slice(2)],
    [/_([LR])$/, (m) => name.slice(0, -2) + (m[1] === 'L' ? '_R' : '_L')],
    [/^l_/, () => 'r_' + name.slice(2)],
    [/^r_/, () => 'l_' + name.slice(2)],
    [/Left/, () => name.replace('Left', 'Right')],
    [/Right/, () => name.replace('Right', 'Left')],
  ]
  for (const [re, f] of rules) {
    const m = re.exec(name)
    if (m) return f(m)
  }
  return null
}

/** Reflection of a rotation across the character's YZ plane (x → −x): (x, −y, −z, w). */
export function reflectX(q: Quat): Quat {
  return [q[0], -q[1], -q[2], q[3]]
}

/**
 * Mirrors a pose left↔right: every bone's change from its reference rotation (ref⁻¹·q, in the
 * bone's own frame) is reflected across X and applied to the opposite bone's reference (centre
 * bones mirror onto themselves). Exact when the two sides' reference frames are mirror images
 * of each other; a heuristic otherwise (the UI says so).
 */
export function mirrorPose(pose: Float64Array, reference: Float64Array, names: string[]): Float64Array {
  const index = new Map(names.map((n, i) => [n, i]))
  const out = pose.slice()
  names.forEach((name, i) => {
    const other = mirrorName(name)
    const j = other !== null ? index.get(other) : i
    if (j === undefined) return // a side bone without a partner keeps its pose
    const delta = quatMultiply(quatConjugate(quatNormalize(getQuat(reference, i))), getQuat(pose, i))
    out.set(quatCanonical(quatMultiply(getQuat(reference, j), reflectX(delta))), j * 4)
  })
  return out
}

// ---- forward kinematics -----------------------------------------------------------------

export interface WorldPose {
  /** World positions, x y z per bone. */
  positions: Float64Array
  /** World rotations, x y z w per bone. */
  rotations: Float64Array
}

/** World transforms from local ones (translation then rotation per bone, parent first). */
export function worldPose(parents: ArrayLike<number>, translations: ArrayLike<number>, rotations: ArrayLike<number>): WorldPose {
  const n = parents.length
  const positions = new Float64Array(n * 3)
  const rots = new Float64Array(n * 4)
  const done = new Uint8Array(n)
  const visit = (i: number, depth: number): void => {
    if (done[i]) return
    if (depth > n) throw new Error('bone hierarchy has a cycle')
    const p = parents[i]!
    const lq: Quat = [rotations[i * 4]!, rotations[i * 4 + 1]!, rotations[i * 4 + 2]!, rotations[i * 4 + 3]!]
    const lt: [number, number, number] = [translations[i * 3]!, translations[i * 3 + 1]!, translations[i * 3 + 2]!]
    if (p < 0 || p >= n) {
      positions.set(lt, i * 3)
      rots.set(quatNormalize(lq), i * 4)
    } else {
      visit(p, depth + 1)
      const pq = getQuat(rots, p)
      const t = quatRotateVec3(pq, lt)
      positions.set([positions[p * 3]! + t[0], positions[p * 3 + 1]! + t[1], positions[p * 3 + 2]! + t[2]], i * 3)
      rots.set(quatNormalize(quatMultiply(pq, lq)), i * 4)
    }
    done[i] = 1
  }
  for (let i = 0; i < n; i++) visit(i, 0)
  return { positions, rotations: rots }
}
