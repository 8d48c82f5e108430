// @vitest-environment happy-dom
/** The pose undo store: sessions per template, one undo step per edit and per drag, dirty/saved, unload guard. */
import { beforeEach, describe, expect, it } from 'vitest'
import { computed } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { ReTemplate } from '../../../../../src-shared/api/re'
import { usePoseStore } from '../../../../../src-renderer/components/re/pose-store'

const q = (x: number, y: number, z: number, w: number) => [x, y, z, w]
const s = Math.SQRT1_2
function template(path = '/m/a.motlist.663'): ReTemplate {
  return {
    path, kind: 'motlist', version: 663, motlistVersion: 663, name: 'a',
    skeleton: { names: ['root', 'Head'], parents: Int32Array.of(-1, 0), hashes: Uint32Array.of(1, 2), translations: new Float64Array(6), rotations: Float64Array.from([...q(0, 0, 0, 1), ...q(0, 0, 0, 1)]) },
    motions: [], warnings: [],
  }
}
/** Head turned by 90° about Y, or by `k` × 9° during a drag. */
const headY = (deg: number) => Float64Array.from([...q(0, 0, 0, 1), ...q(0, Math.sin((deg * Math.PI) / 360), 0, Math.cos((deg * Math.PI) / 360))])

describe('pose store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    localStorage.clear()
  })

  it('edits, drags as one step, undo/redo and the dirty mark through the active session', () => {
    const st = usePoseStore()
    expect(st.canUndo).toBe(false)
    expect(st.undo()).toBe(false) // nothing open: no-op
    st.open(template())
    const canUndo = computed(() => st.canUndo) // views read the store reactively
    expect(canUndo.value).toBe(false)
    st.apply(headY(90))
    expect(canUndo.value).toBe(true)
    expect(st.dirty).toBe(true)
    expect(st.current![7]).toBeCloseTo(s, 12)
    // a drag of ten updates is one step
    st.beginDrag()
    for (let k = 1; k <= 10; k++) st.update(headY(90 + k * 9))
    expect(st.canUndo).toBe(false) // not while dragging
    st.endDrag()
    expect(st.current![5]).toBeCloseTo(Math.sin(Math.PI / 2), 12) // 180°: y = 1
    expect(st.undo()).toBe(true)
    expect(st.current![7]).toBeCloseTo(s, 12)
    expect(st.undo()).toBe(true)
    expect(st.current![7]).toBe(1)
    expect(st.dirty).toBe(false)
    expect(st.canRedo).toBe(true)
    expect(st.redo()).toBe(true)
    expect(st.redo()).toBe(true)
    expect(st.redo()).toBe(false)
    expect(st.current![5]).toBeCloseTo(1, 12)
    // an edit after undo drops the redo steps
    st.undo()
    st.apply(headY(30))
    expect(st.canRedo).toBe(false)
    // what a save writes: only the bones off their reference, with their rotations
    const changed = st.changedBones()
    expect(changed.bones).toEqual(['Head'])
    expect(Array.from(changed.rotations)).toEqual([0, Math.sin(Math.PI / 12), 0, Math.cos(Math.PI / 12)])
    // saving clears the dirty mark and remembers where
    st.markSaved('/out/x.motlist.663')
    expect(st.dirty).toBe(false)
    expect(st.active!.savedPath).toBe('/out/x.motlist.663')
    expect(st.canUndo).toBe(true) // history survives a save
  })

  it('keeps each template’s session (and its history) when another is opened, and guards unload', () => {
    const st = usePoseStore()
    const a = st.open(template('/m/a.motlist.663'))
    st.apply(headY(45))
    st.select(1)
    const b = st.open(template('/m/b.motlist.663'))
    expect(b).not.toBe(a)
    expect(st.selected).toBe(-1)
    expect(st.dirty).toBe(false)
    expect(st.anyDirty).toBe(true) // a still has unsaved edits
    const ev = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(ev)
    expect(ev.defaultPrevented).toBe(true)
    // back to a: same session, same history and selection
    expect(st.open(template('/m/a.motlist.663'))).toBe(a)
    expect(st.selected).toBe(1)
    expect(st.undo()).toBe(true)
    expect(st.anyDirty).toBe(false)
    const ev2 = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(ev2)
    expect(ev2.defaultPrevented).toBe(false)
    expect(localStorage.getItem('modbench.re.lastTemplate')).toBe('/m/a.motlist.663')
    st.leave()
    expect(st.active).toBeNull()
    expect(st.canUndo).toBe(false)
  })
})
