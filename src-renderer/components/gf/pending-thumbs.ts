import { shallowReactive, watch, type Ref } from 'vue'
import { bridge } from '../../bridge'
import type { PendingReplacement } from './pending'

const keyOf = (t: { file: string; entry: number }) => `${t.file}#${t.entry}`

/**
 * The "after" pictures of a set's pending replacements for the grid's thumbnails: the re-encoded
 * image as the repack will write it (`gf:previewReplace`), remembered per pending item. Views
 * that already previewed an item hand its picture over (`remember`) instead of re-encoding.
 */
export function usePendingThumbs(set: Ref<string | null>, list: Ref<PendingReplacement[]>) {
  const after = shallowReactive(new Map<string, { item: PendingReplacement; rgba: Uint8Array }>())

  async function refresh(): Promise<void> {
    const s = set.value
    if (!s) return
    for (const p of list.value) {
      if (after.get(keyOf(p))?.item === p) continue
      try {
        const r = await bridge.invoke('gf:previewReplace', { set: s, file: p.file, entry: p.entry, png: p.png, path: p.path, resize: true })
        if (set.value === s && !(after.get(keyOf(p))?.item === p)) after.set(keyOf(p), { item: p, rgba: r.rgba })
      } catch {
        /* the thumbnail keeps the stored picture; the texture view shows the error */
      }
    }
  }

  /** The pending picture of a texture, if it has a current pending replacement. */
  function thumbOf(t: { file: string; entry: number }): Uint8Array | undefined {
    const p = list.value.find((x) => x.file === t.file && x.entry === t.entry)
    const a = after.get(keyOf(t))
    return p && a?.item === p ? a.rgba : undefined
  }

  function remember(item: PendingReplacement, rgba: Uint8Array): void {
    after.set(keyOf(item), { item, rgba })
  }

  watch([set, list], () => void refresh(), { immediate: true })
  return { thumbOf, remember }
}
