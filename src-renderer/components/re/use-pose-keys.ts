/**
 * Wires the pose editor's keys (pose-keys.ts) to the window and the pose store: a key rotation
 * runs as one continuous edit of the store (beginDrag … update … endDrag: one undo step when
 * confirmed, none when cancelled), Alt+R / paste are single steps, copy keeps a bone's rotation.
 * Keys typed into text fields stay theirs (except while a rotation runs).
 */
import { onBeforeUnmount, onMounted, ref } from 'vue'
import type { Vec3 } from '@shared/formats/re/euler'
import { PoseKeys, type PoseCommand } from './pose-keys'
import { copyBone, pasteBone, rotateBone, type CopiedBone } from './pose-ops'
import type { usePoseStore } from './pose-store'

export interface PoseKeyHost {
  store: ReturnType<typeof usePoseStore>
  /** Shows the store's current pose in the view. */
  refresh(): void
  select(bone: number): void
  /** Alt+R: the selected bone back to its reference rotation (one undo step). */
  clearBone(): void
  save(): void
  undo(): void
  redo(): void
  status(text: string): void
  /** The camera's view direction in the frame of the bone's parent (free rotation axis). */
  viewAxis(bone: number): Vec3 | null
  /** The editor's element (keys typed elsewhere, e.g. in the asset tree, are not the editor's). */
  root(): HTMLElement | null
  /** Folds or unfolds a side panel (T: bone tree, N: bone panel). */
  panel(side: 'left' | 'right'): void
}

export function usePoseKeys(host: PoseKeyHost) {
  const keys = new PoseKeys()
  /** Heads-up text while rotating ('' otherwise). */
  const hud = ref('')
  let start: { pose: Float64Array; bone: number; view: Vec3 } | null = null
  let clip: CopiedBone | null = null

  function rotateTo(axis: 'view' | 0 | 1 | 2, degrees: number): void {
    if (!start) return
    host.store.update(rotateBone(start.pose, start.bone, degrees, axis === 'view' ? start.view : axis))
    host.refresh()
  }

  function run(c: PoseCommand): void {
    const s = host.store.active
    const sk = s?.template.skeleton
    if (!s || !sk) return
    const pose = s.history.current
    switch (c.type) {
      case 'rotate-start':
        start = { pose: pose.slice(), bone: s.selected, view: host.viewAxis(s.selected) ?? [0, 0, 1] }
        host.store.beginDrag()
        break
      case 'rotate':
        rotateTo(c.axis, c.degrees)
        break
      case 'rotate-commit':
        rotateTo(c.axis, c.degrees)
        host.store.endDrag()
        start = null
        break
      case 'rotate-cancel':
        if (start) host.store.update(start.pose)
        host.store.endDrag()
        start = null
        host.refresh()
        break
      case 'clear-rotation':
        return host.clearBone()
      case 'copy':
        clip = copyBone(pose, sk.rotations, sk.names, s.selected)
        if (clip) host.status(`Copied the rotation of ${clip.name}.`)
        break
      case 'paste': {
        const r = clip ? pasteBone(pose, sk.rotations, sk.names, clip, s.selected, c.flip) : null
        if (!r) return host.status(clip ? 'Nothing to paste onto (select a bone).' : 'Copy a bone first (Ctrl+C).')
        host.store.apply(r.pose)
        host.select(r.bone)
        host.refresh()
        host.status(c.flip ? `Flip-pasted ${clip!.name} onto ${sk.names[r.bone]}.` : `Pasted ${clip!.name} onto ${sk.names[r.bone]}.`)
        break
      }
      case 'save':
        return host.save()
      case 'undo':
        return host.undo()
      case 'redo':
        return host.redo()
    }
  }

  function runAll(cs: PoseCommand[]): void {
    for (const c of cs) {
      if (c.type === 'panel') host.panel(c.side)
      else run(c)
    }
    hud.value = keys.label
  }

  /** Keys belong to the editor when nothing else has the focus (body) or the focus is inside it. */
  function ours(t: EventTarget | null): boolean {
    if (!(t instanceof Node) || t === document.body || t === document.documentElement) return true
    const root = host.root()
    return !!root && root.contains(t)
  }

  function onKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null
    if (!keys.rotating && !ours(t)) return
    // Ctrl+C over selected text copies the text
    if (!keys.rotating && (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c' && !(window.getSelection()?.isCollapsed ?? true)) return
    const typing = !!t && (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.tagName === 'INPUT')
    // Number fields keep their keys, except undo/redo (as before) and Ctrl+S.
    if (typing && !keys.rotating && !(e.ctrlKey && (t as HTMLInputElement).type === 'number')) return
    const s = host.store.active
    const cs = keys.key({ key: e.key, code: e.code, ctrl: e.ctrlKey || e.metaKey, alt: e.altKey, shift: e.shiftKey }, !!s && s.selected >= 0)
    if (!cs) return
    e.preventDefault()
    e.stopPropagation()
    runAll(cs)
  }
  function onMove(e: PointerEvent): void {
    if (keys.rotating) runAll(keys.pointer(e.movementX))
  }
  function onDown(e: PointerEvent): void {
    if (!keys.rotating) return
    // The click ends the rotation; it must not reach the camera or the gizmo.
    e.preventDefault()
    e.stopPropagation()
    runAll(keys.click(e.button === 0))
  }
  const onMenu = (e: Event) => keys.rotating && e.preventDefault()

  onMounted(() => {
    window.addEventListener('keydown', onKey, true)
    window.addEventListener('pointermove', onMove)
    window.addEventListener('pointerdown', onDown, true)
    window.addEventListener('contextmenu', onMenu, true)
  })
  onBeforeUnmount(() => {
    if (keys.rotating) runAll(keys.key({ key: 'Escape' }, false) ?? [])
    window.removeEventListener('keydown', onKey, true)
    window.removeEventListener('pointermove', onMove)
    window.removeEventListener('pointerdown', onDown, true)
    window.removeEventListener('contextmenu', onMenu, true)
  })
  return { hud }
}
