import { ref, shallowRef } from 'vue'
import type { AssetRow } from '@shared/api'
import { bridge } from '../bridge'

/** The search box's state for the catalog store: the query, its hits, and whether a search runs (the newest wins). */
export function catalogSearch(reportError: (e: unknown) => void) {
  const query = ref('')
  const results = shallowRef<AssetRow[]>([])
  const searching = ref(false)
  let searchSeq = 0

  async function search(text: string): Promise<void> {
    query.value = text
    const seq = ++searchSeq
    if (!text.trim()) {
      results.value = []
      return
    }
    searching.value = true
    try {
      const found = await bridge.invoke('catalog:search', { query: text, limit: 200 })
      if (seq === searchSeq) results.value = found
    } catch (e) {
      reportError(e)
    } finally {
      if (seq === searchSeq) searching.value = false
    }
  }
  return { query, results, searching, search }
}
