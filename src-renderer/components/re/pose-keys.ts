/**
 * The pose editor's Blender-style keys as a pure state machine (no DOM: it reads plain key
 * descriptors and returns commands, so it is unit-tested without a browser):
 * - R starts rotating the selected bone (free: about the view axis, following the mouse);
 *   X / Y / Z lock the bone's own local axis (the gizmo's red/green/blue rings), the same key
 *   again unlocks; digits, `.`, `-` (negates) and Backspace type an exact angle in degrees that
 *   replaces the mouse's; Enter (or a left click) confirms, Esc (or a right click) cancels.
 * - Alt+R clears the bone's rotation (its reference rotation), Ctrl+C / Ctrl+V copy and paste a
 *   bone's rotation, Ctrl+Shift+V flip-pastes onto the mirrored bone, Ctrl+S saves, Ctrl+Z /
 *   Ctrl+Shift+Z / Ctrl+Y undo and redo; T and N fold the bone tree and the bone panel.
 * Every rotation is sent as the whole angle from where it started (`rotate`), so the caller
 * applies it to the start pose; a confirmed rotation is one undo step, a cancelled one none.
 */

export type RotateAxis = 'view' | 0 | 1 | 2

export interface KeyInput {
  key: string
  /** KeyboardEvent.code (layout-independent; Alt+R on macOS gives key '®'). */
  code?: string
  ctrl?: boolean
  alt?: boolean
  shift?: boolean
}

export type PoseCommand =
  | { type: 'rotate-start' }
  | { type: 'rotate'; axis: RotateAxis; degrees: number }
  | { type: 'rotate-commit'; axis: RotateAxis; degrees: number }
  | { type: 'rotate-cancel' }
  | { type: 'clear-rotation' }
  | { type: 'copy' }
  | { type: 'paste'; flip: boolean }
  | { type: 'save' }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'panel'; side: 'left' | 'right' }

/** Degrees per pixel of horizontal mouse travel while rotating freely. */
export const DEGREES_PER_PIXEL = 0.5

const AXES: Record<string, 0 | 1 | 2> = { x: 0, y: 1, z: 2 }

interface Rotating {
  axis: RotateAxis
  digits: string
  negative: boolean
  mouse: number
}

export class PoseKeys {
  private rot: Rotating | null = null

  get rotating(): boolean {
    return this.rot !== null
  }
  get axis(): RotateAxis | null {
    return this.rot?.axis ?? null
  }
  /** The typed text ('' when the mouse drives the angle). */
  get typed(): string {
    return this.rot ? `${this.rot.negative ? '-' : ''}${this.rot.digits}` : ''
  }
  /** The current angle in degrees (typed value, else the mouse's). */
  get degrees(): number {
    const r = this.rot
    if (!r) return 0
    const v = r.digits && r.digits !== '.' ? Number(r.digits) : r.digits ? 0 : r.mouse
    return r.negative ? -v : v
  }
  /** A one-line description for the view's heads-up text, or '' when not rotating. */
  get label(): string {
    const r = this.rot
    if (!r) return ''
    const axis = r.axis === 'view' ? 'view axis' : `local ${'XYZ'[r.axis]}`
    return `Rotate ${axis}: ${this.typed || this.degrees.toFixed(1)}°`
  }

  /**
   * One key press. `canRotate`: a bone is selected. Returns the commands to run, or null when
   * the key is not the editor's (let it through); an empty list means "handled, nothing to do".
   */
  key(e: KeyInput, canRotate: boolean): PoseCommand[] | null {
    const k = e.key.toLowerCase()
    if (this.rot) return this.whileRotating(e, k)
    const letter = e.code?.startsWith('Key') ? e.code.slice(3).toLowerCase() : k
    if (e.ctrl) {
      if (letter === 'z') return [{ type: e.shift ? 'redo' : 'undo' }]
      if (letter === 'y') return [{ type: 'redo' }]
      if (letter === 's') return [{ type: 'save' }]
      if (letter === 'c') return e.shift ? null : [{ type: 'copy' }]
      if (letter === 'v') return [{ type: 'paste', flip: !!e.shift }]
      return null
    }
    if (letter === 'r' && e.alt) return canRotate ? [{ type: 'clear-rotation' }] : []
    if (e.alt || e.shift) return null
    if (letter === 't') return [{ type: 'panel', side: 'left' }]
    if (letter === 'n') return [{ type: 'panel', side: 'right' }]
    if (letter === 'r') {
      if (!canRotate) return []
      this.rot = { axis: 'view', digits: '', negative: false, mouse: 0 }
      return [{ type: 'rotate-start' }, this.preview()]
    }
    return null
  }

  /** Horizontal mouse travel (pixels) while rotating; ignored once a value is typed. */
  pointer(dx: number): PoseCommand[] {
    const r = this.rot
    if (!r || !Number.isFinite(dx)) return []
    r.mouse += dx * DEGREES_PER_PIXEL
    return r.digits ? [] : [this.preview()]
  }

  /** A click while rotating: left confirms, right cancels. */
  click(confirm: boolean): PoseCommand[] {
    if (!this.rot) return []
    return confirm ? [this.commit()] : [this.cancel()]
  }

  private whileRotating(e: KeyInput, k: string): PoseCommand[] {
    const r = this.rot!
    if (k === 'enter' || k === 'numpadenter') return [this.commit()]
    if (k === 'escape') return [this.cancel()]
    if (e.ctrl || e.alt) return []
    if (k in AXES) {
      const a = AXES[k]!
      r.axis = r.axis === a ? 'view' : a
    } else if (/^[0-9]$/.test(k)) r.digits += k
    else if (k === '.' || k === ',') {
      if (!r.digits.includes('.')) r.digits += '.'
    } else if (k === '-') r.negative = !r.negative
    else if (k === 'backspace') {
      if (r.digits) r.digits = r.digits.slice(0, -1)
      else r.negative = false
    } else return []
    return [this.preview()]
  }

  private preview(): PoseCommand {
    return { type: 'rotate', axis: this.rot!.axis, degrees: this.degrees }
  }
  private commit(): PoseCommand {
    const c: PoseCommand = { type: 'rotate-commit', axis: this.rot!.axis, degrees: this.degrees }
    this.rot = null
    return c
  }
  private cancel(): PoseCommand {
    this.rot = null
    return { type: 'rotate-cancel' }
  }
}
