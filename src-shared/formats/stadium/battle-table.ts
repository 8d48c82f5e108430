/**
 * Per-species battle tables: which animation plays for each move and battle context
 * (pokemon-stadium.md §15; pret `src/2E460.c` D_80075BD0, `src/fragments/62/fragment62.h`
 * unk_D_8438E7B0 / _A50, fragment 62 readers; pipeline `battle.py` / `build.py`).
 *
 * Pointer table D_80075BD0 at ROM 0x767D0: 153 u32 (value & 0xFFFFFF = offset into the blob at
 * ROM 0x70D3A0). Each table is 0xB90 bytes = 185 entries of 16 bytes: entries 0–164 are moves
 * 1–165, 165–184 are context slots. Entry 151 is the Substitute doll, 152 Surfing Pikachu.
 */
import { FormatError, hex } from '../../binary'
import { MOVE_COUNT, moveName } from './names'

export const BATTLE_POINTER_TABLE_ROM = 0x767d0
export const BATTLE_BLOB_ROM = 0x70d3a0
export const BATTLE_TABLE_STRIDE = 0xb90
export const BATTLE_ENTRY_SIZE = 0x10
export const BATTLE_ENTRY_COUNT = 185
export const BATTLE_POINTER_COUNT = 153

export interface BattleEntry {
  /** Byte 0: skeletal animation index. */
  anim: number
  /** Byte 1: texture animation index, −1 for 0xFF (none). */
  aux: number
  /** Byte 2: attachment point of a spawned effect. */
  attach: number
  /** Byte 4: trigger frame. */
  triggerFrame: number
  /** Byte 5: effect/sound id at the trigger frame. */
  effect: number
  /** Byte 6: start frame for both counters when the move animation is set. */
  startFrameBoth: number
  /** Byte 0xB: start frame of ordinary move playback (0 = frame 0). */
  playStartFrame: number
  raw: number[]
}

export interface BattleTable {
  /** Pointer-table entry (0-based): species − 1, 151 Substitute, 152 Surfing Pikachu. */
  entry: number
  romOffset: number
  entries: BattleEntry[]
  /** Set when the pointer was 0 and the US 1.0 stride was used instead. */
  warning?: string
}

export interface ContextSlot {
  slot: number
  name: string
  pipelineName: string
  evidence: 'code' | 'data' | 'code+data'
  description: string
}

/** Context slots 165–184 with our names and the pipeline's (§15.4). */
export const CONTEXT_SLOTS: readonly ContextSlot[] = [
  { slot: 165, name: 'idle', pipelineName: 'idle', evidence: 'code', description: 'standby loop; byte 1 = standby eyes; bytes 4/5/2 time a random idle flourish' },
  { slot: 166, name: 'attack_default', pipelineName: 'attack_default', evidence: 'data', description: 'the animation most moves point at; byte 1 applied as eyes' },
  { slot: 167, name: 'faint', pipelineName: 'faint', evidence: 'code+data', description: 'fainting; bytes 9/0xA time the thud' },
  { slot: 168, name: 'hit', pipelineName: 'entrance', evidence: 'code', description: 'played on the defender when a hit lands; frame 4 of it is the frozen pose; also used in other sequences' },
  ...[169, 170, 171, 172, 173, 174].map((s) => ({ slot: s, name: `reaction_${s}`, pipelineName: `reaction_${s}`, evidence: 'data' as const, description: 'not decoded' })),
  { slot: 175, name: 'sleep', pipelineName: 'struggle', evidence: 'code', description: 'byte 1 = sleeping eyes; byte 0 = sleeping idle for species in D_84384590' },
  { slot: 176, name: 'idle_alt', pipelineName: 'idle_alt', evidence: 'code', description: 'replaces idle when battle flag 0x200 is set' },
  { slot: 177, name: 'faint_alt', pipelineName: 'faint_alt', evidence: 'code+data', description: 'same timing code as slot 167' },
  { slot: 178, name: 'hit_asleep', pipelineName: 'flinch', evidence: 'code', description: 'replaces slot 168 for Voltorb/Weezing defenders while asleep' },
  ...[179, 180, 181, 182].map((s) => ({ slot: s, name: `reaction_${s}`, pipelineName: `reaction_${s}`, evidence: 'data' as const, description: 'not decoded' })),
  { slot: 183, name: 'hit_alt', pipelineName: 'entrance_alt', evidence: 'data', description: 'same animation as slot 168 for every species' },
  { slot: 184, name: 'wake_eyes', pipelineName: 'idle_return', evidence: 'code', description: 'byte 1 = eyes applied on waking up (0xFF: slot 165 eyes)' },
]

/** The pipeline's naming priority with our renamed equivalents (§15.5 rule 2). */
export const NAME_PRIORITY = ['idle', 'attack_default', 'faint', 'hit', 'sleep', 'hit_asleep'] as const

/** Reads pointer-table entry `entry` (0..152). Returns null when the ROM is too short to hold it. */
export function readBattleTable(rom: Uint8Array, entry: number, file = 'ROM'): BattleTable | null {
  if (entry < 0 || entry >= BATTLE_POINTER_COUNT) return null
  const pAt = BATTLE_POINTER_TABLE_ROM + entry * 4
  if (pAt + 4 > rom.length) return null
  const v = new DataView(rom.buffer, rom.byteOffset, rom.byteLength)
  let off = v.getUint32(pAt) & 0xffffff
  let fallback = false
  if (off === 0 && entry > 0) {
    // Entry i is i × 0xB90 in US 1.0 (§15.1); a zero past entry 0 means the pointer table is
    // absent (an image that carries only the tables), so use the US layout rather than giving
    // every model species 1's table.
    off = entry * BATTLE_TABLE_STRIDE
    fallback = true
  }
  const at = BATTLE_BLOB_ROM + off
  if (at + BATTLE_TABLE_STRIDE > rom.length) {
    throw new FormatError(`battle table ${entry} at ${hex(at)} runs past the end of the ${hex(rom.length)}-byte ROM`, { file, structure: `D_80075BD0[${entry}]`, offset: pAt })
  }
  const entries: BattleEntry[] = []
  for (let e = 0; e < BATTLE_ENTRY_COUNT; e++) {
    const o = at + e * BATTLE_ENTRY_SIZE
    const raw = [...rom.subarray(o, o + BATTLE_ENTRY_SIZE)]
    entries.push({ anim: raw[0]!, aux: raw[1] === 0xff ? -1 : raw[1]!, attach: raw[2]!, triggerFrame: raw[4]!, effect: raw[5]!, startFrameBoth: raw[6]!, playStartFrame: raw[0xb]!, raw })
  }
  return { entry, romOffset: at, entries, ...(fallback ? { warning: `battle pointer D_80075BD0[${entry}] at ${hex(pAt)} is 0; used the US 1.0 table at ${hex(at)}` } : {}) }
}

export interface AnimationLabel {
  index: number
  name: string
  /** Move ids (1-based) whose entry points at this animation. */
  moveIds: number[]
  moves: string[]
  /** Context slot names (ours) that point here. */
  contexts: string[]
  /** The pipeline's names for the same slots. */
  pipelineContexts: string[]
  /** Most common valid texture animation over the entries that use this animation, or −1. */
  pairedTextureAnimation: number
}

export interface Labelling {
  labels: AnimationLabel[]
  /** Animation of slot 166 (attack_default), −1 when out of range. */
  defaultAnim: number
  warnings: string[]
}

/**
 * Names every animation from the table (§15.5 rules 1–3). With no table, animations are named
 * `anim<i>` and paired with texture animation 0 when there is one (rule 5).
 */
export function labelAnimations(table: BattleTable | null, animCount: number, texAnimCount: number): Labelling {
  const warnings: string[] = []
  const labels: AnimationLabel[] = []
  for (let a = 0; a < animCount; a++) labels.push({ index: a, name: '', moveIds: [], moves: [], contexts: [], pipelineContexts: [], pairedTextureAnimation: -1 })
  let defaultAnim = -1
  if (table) {
    const auxCounts: Map<number, number>[] = labels.map(() => new Map())
    table.entries.forEach((e, i) => {
      if (e.anim >= animCount) {
        warnings.push(`battle entry ${i}: animation ${e.anim} ≥ animation count ${animCount}; skipped`)
        return
      }
      const l = labels[e.anim]!
      if (i < MOVE_COUNT) {
        l.moveIds.push(i + 1)
        l.moves.push(moveName(i + 1))
      } else {
        const slot = CONTEXT_SLOTS[i - MOVE_COUNT]!
        l.contexts.push(slot.name)
        l.pipelineContexts.push(slot.pipelineName)
      }
      if (e.aux >= 0 && e.aux < texAnimCount) auxCounts[e.anim]!.set(e.aux, (auxCounts[e.anim]!.get(e.aux) ?? 0) + 1)
    })
    labels.forEach((l, a) => {
      // Ties go to the texture animation met first in entry order, as the pipeline's
      // collections.Counter.most_common does (build.py label_animations).
      let best = -1
      let bestN = 0
      for (const [aux, n] of auxCounts[a]!.entries()) {
        if (n > bestN) {
          best = aux
          bestN = n
        }
      }
      l.pairedTextureAnimation = best
    })
    const d = table.entries[166]!.anim
    defaultAnim = d < animCount ? d : -1
    if (table.warning) warnings.push(table.warning)
  }
  const used = new Map<string, number>()
  for (const l of labels) {
    let base: string
    const pri = NAME_PRIORITY.find((n) => l.contexts.includes(n))
    if (pri) base = pri
    else if (l.moves.length) base = 'attack'
    else if (l.contexts.length) base = [...l.contexts].sort()[0]!
    else base = `anim${l.index}`
    const n = (used.get(base) ?? 0) + 1
    used.set(base, n)
    l.name = n === 1 ? base : `${base}_${n}`
    if (!table && texAnimCount > 0) l.pairedTextureAnimation = 0
  }
  return { labels, defaultAnim, warnings }
}
