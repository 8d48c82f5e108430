/** Synthetic catalog content for `bench/catalog.ts`: sources of named, tagged asset trees (our own words). */
import type { AssetDraft } from '../src-main/plugin/detector'

const SPECIES = ['pikachu', 'bulbasaur', 'charmander', 'squirtle', 'jigglypuff', 'meowth', 'psyduck', 'snorlax', 'dragonite', 'mew', 'eevee', 'magikarp', 'gyarados', 'lapras', 'ditto', 'porygon']
const PARTS = ['eye', 'body', 'mouth', 'tail', 'wing', 'head', 'arm', 'leg', 'spine', 'root', 'shadow', 'shine']
const KINDS = ['texture', 'mesh', 'motion', 'material']
const TAGS = ['RGBA8', 'ETC1', 'RGB565', 'LA8', 'ETC1A4']

/**
 * One source's drafts: a root, `folders` folders, the rest spread under them. `seed` varies the
 * words so sources differ; names look like `pikachu_eye_03`, some with a repeated word.
 */
export function sourceDrafts(seed: number, count: number, folders = 20): AssetDraft<string>[] {
  const out: AssetDraft<string>[] = [{ key: 'root', kind: 'game', name: `Bench set ${seed}`, locator: {} }]
  for (let f = 0; f < folders && out.length < count; f++) out.push({ key: `f${f}`, parentKey: 'root', kind: 'folder', name: `${SPECIES[(seed + f) % SPECIES.length]} models`, locator: { folder: f } })
  for (let i = 0; out.length < count; i++) {
    const h = Math.imul(seed * 7919 + i, 2654435761) >>> 0
    const sp = SPECIES[h % SPECIES.length]!
    const part = PARTS[(h >>> 8) % PARTS.length]!
    const extra = (h >>> 16) % 9 === 0 ? `_${PARTS[(h >>> 20) % PARTS.length]}` : ''
    out.push({
      key: `a${i}`,
      parentKey: `f${i % folders}`,
      kind: KINDS[(h >>> 4) % KINDS.length]!,
      name: `${sp}_${part}${extra}_${String(i % 100).padStart(2, '0')}`,
      locator: { file: `${h % 9}.bin`, entry: i },
      metadata: { width: 64 << (h % 3), height: 64 },
      tags: [TAGS[(h >>> 12) % TAGS.length]!],
    })
  }
  return out
}

/** The bench's search queries: common words, two-word queries, a prefix, a rare word and a miss. */
export const BENCH_QUERIES = ['eye', 'body', 'pika', 'sh', 'shadow', 'rgba8', 'etc1', 'pikachu eye', 'mew body', 'bulb', 'magikarp tail', 'drago wing', 'set 7', 'models', 'zzz']
