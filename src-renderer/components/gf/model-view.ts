/** Helpers of the GF model view: motions grouped by file with the §11.9 slot labels as hints. */
import type { AssetRow, Req } from '@shared/api'
import type { GfSceneMotionInfo } from '@shared/api/gf-model'

/** What each motion file holds (spec §1); a UI hint. */
const GROUPS: Record<string, string> = { '4.bin': 'Fight (battle)', '5.bin': 'Pet (Pokémon Refresh)', '6.bin': 'Movement (field)', '7.bin': 'Extra' }

export interface MotionGroup {
  file: string
  title: string
  motions: (GfSceneMotionInfo & { text: string })[]
}

export function groupMotions(motions: readonly GfSceneMotionInfo[]): MotionGroup[] {
  const out: MotionGroup[] = []
  for (const m of motions) {
    let g = out.find((x) => x.file === m.file)
    if (!g) out.push((g = { file: m.file, title: `${m.file} · ${GROUPS[m.file] ?? 'motions'}`, motions: [] }))
    const text = `${String(m.entry).padStart(2, '0')}${m.label ? ` ${m.label}` : ''}`
    g.motions.push({ ...m, text })
  }
  return out
}

/** The level of detail a model view opens with: a model's own (entry 0 high-poly, others low), else high. */
export function initialLod(a: AssetRow | null): 'high' | 'low' {
  return a?.kind === 'gf-model' && a.locator.entry !== 0 ? 'low' : 'high'
}

/** The model view's first `gf:model` request for `set` (no pending replacements). */
export function modelRequest(set: string, a: AssetRow | null): Req<'gf:model'> {
  return { set, lod: initialLod(a), replacements: [] }
}

type ChildrenFn = (req: { sourceId: number; parent: number | null }) => Promise<AssetRow[]>

/**
 * The `gf-model` asset of a set source, found through the catalog tree: the model of 0.bin entry
 * `entry` (default the high-poly 0; with no entry 0, the first model).
 */
export async function findModelAsset(children: ChildrenFn, sourceId: number, entry = 0): Promise<AssetRow | null> {
  const files = await children({ sourceId, parent: null })
  const zero = files.find((f) => f.kind === 'gf-file' && f.name.toLowerCase() === '0.bin')
  if (!zero) return null
  const models = (await children({ sourceId, parent: zero.id })).filter((a) => a.kind === 'gf-model')
  return models.find((m) => m.locator.entry === entry) ?? (entry === 0 ? (models[0] ?? null) : null)
}
