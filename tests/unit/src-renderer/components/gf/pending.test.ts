// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { useGfPendingStore } from '../../../../../src-renderer/components/gf/pending'
import { STORAGE_PREFIX, decodePending, encodePending, type KeyValueStorage } from '../../../../../src-renderer/components/gf/pending-storage'

/**
 * Pending GF replacements survive a reload (a new Pinia over the same local storage), kept per set
 * with undo per set; dropped PNG bytes come back byte for byte, picked files as their path.
 */
const A = '/sets/pm0025'
const B = '/sets/pm0133'
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 128, 7])
const item = (set: string, file: string, entry: number, more: { png?: Uint8Array; path?: string }) => ({ set, file, entry, name: `t${entry}`, psnr: 31.5, resized: false, ...more })

/** A fresh store as after a page reload: nothing in memory, the same local storage. */
function reload() {
  setActivePinia(createPinia())
  return useGfPendingStore()
}

describe('gf pending replacements', () => {
  beforeEach(() => localStorage.clear())

  it('are kept per set across a reload; bytes and paths come back as given', () => {
    const s = reload()
    s.add(item(A, '1.bin', 0, { png: PNG }))
    s.add(item(A, '2.bin', 3, { path: '/pngs/eye.png' }))
    s.add(item(B, '1.bin', 0, { path: '/pngs/other.png' }))
    expect(Object.keys(localStorage).sort()).toEqual([STORAGE_PREFIX + A, STORAGE_PREFIX + B])
    const r = reload()
    const a = r.forSet(A)
    expect(a.map((p) => [p.file, p.entry, p.path ?? null])).toEqual([['1.bin', 0, null], ['2.bin', 3, '/pngs/eye.png']])
    expect(Array.from(a[0]!.png!)).toEqual(Array.from(PNG))
    expect(a[0]).toMatchObject({ set: A, name: 't0', psnr: 31.5, resized: false })
    expect(r.forSet(B).map((p) => p.path)).toEqual(['/pngs/other.png'])
    expect(r.find(A, '2.bin', 3)?.path).toBe('/pngs/eye.png')
    expect(r.find(B, '2.bin', 3)).toBeUndefined()
  })

  it('undo is per set: undoing in one set leaves the other alone, and is saved', () => {
    const s = reload()
    s.add(item(A, '1.bin', 0, { path: '/a.png' }))
    expect(s.canUndo(A)).toBe(true)
    expect(s.canUndo(B)).toBe(false)
    s.add(item(B, '1.bin', 0, { path: '/b.png' }))
    s.add(item(A, '1.bin', 0, { path: '/a2.png' }))
    s.undo(A)
    expect(s.forSet(A).map((p) => p.path)).toEqual(['/a.png'])
    expect(s.forSet(B).map((p) => p.path)).toEqual(['/b.png'])
    s.undo(A)
    expect(s.forSet(A)).toEqual([])
    expect(localStorage.getItem(STORAGE_PREFIX + A)).toBeNull()
    expect(reload().forSet(B).map((p) => p.path)).toEqual(['/b.png'])
  })

  it('a batch is one undo step; clear empties the set and its stored entry', () => {
    const s = reload()
    s.add(item(A, '1.bin', 0, { path: '/old.png' }))
    s.addAll(A, [item(A, '1.bin', 0, { path: '/new.png' }), item(A, '3.bin', 1, { path: '/rim.png' })])
    expect(s.forSet(A).map((p) => p.path)).toEqual(['/new.png', '/rim.png'])
    s.undo(A)
    expect(s.forSet(A).map((p) => p.path)).toEqual(['/old.png'])
    s.clear(A)
    expect(reload().forSet(A)).toEqual([])
  })

  it('redo steps forward again through what undo took back, per set; a new change forgets the undone steps', () => {
    const s = reload()
    s.add(item(A, '1.bin', 0, { path: '/a.png' }))
    s.add(item(A, '2.bin', 3, { path: '/b.png' }))
    s.add(item(B, '1.bin', 0, { path: '/other.png' }))
    expect(s.canRedo(A)).toBe(false)
    s.undo(A)
    s.undo(A)
    expect(s.forSet(A)).toEqual([])
    expect(s.canRedo(A)).toBe(true)
    expect(s.canRedo(B)).toBe(false)
    s.redo(A)
    expect(s.forSet(A).map((p) => p.path)).toEqual(['/a.png'])
    expect(reload().forSet(A).map((p) => p.path), 'saved').toEqual(['/a.png'])
    s.redo(A)
    expect(s.forSet(A).map((p) => p.path)).toEqual(['/a.png', '/b.png'])
    expect(s.canRedo(A)).toBe(false)
    // undo, then a new change: the undone step cannot come back, and undo still walks back
    s.undo(A)
    s.remove(item(A, '1.bin', 0, {}))
    expect(s.canRedo(A)).toBe(false)
    s.redo(A)
    expect(s.forSet(A)).toEqual([])
    s.undo(A)
    expect(s.forSet(A).map((p) => p.path)).toEqual(['/a.png'])
    expect(s.forSet(B).map((p) => p.path)).toEqual(['/other.png'])
  })

  it('damaged or foreign stored text gives an empty list; a storage that refuses reports it', () => {
    localStorage.setItem(STORAGE_PREFIX + A, '{not json')
    expect(reload().forSet(A)).toEqual([])
    expect(decodePending(A, JSON.stringify({ v: 99, items: [] }))).toEqual([])
    expect(decodePending(A, JSON.stringify({ v: 1, items: [{ file: '1.bin', entry: 0 }, { file: '1.bin', entry: 1, path: '/x.png' }] })).map((p) => p.entry)).toEqual([1])
    expect(encodePending([])).toBeNull()
    const full: KeyValueStorage = { getItem: () => null, removeItem: () => {}, setItem: () => { throw new Error('QuotaExceededError') } }
    const s = reload()
    s.useStorage(full)
    s.add(item(A, '1.bin', 0, { png: PNG }))
    expect(s.saveError[A]).toMatch(/cannot be kept for a reload \(QuotaExceededError\)/)
    expect(s.forSet(A)).toHaveLength(1)
  })
})
