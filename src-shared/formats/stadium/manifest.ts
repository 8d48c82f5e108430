/**
 * `manifest.json` and `moves.json` (pokemon-stadium.md §16.5, §16.6; the pipeline's schemas,
 * extended with the recommended additions).
 */
import type { Scene } from '../../scene/types'
import { CONTEXT_SLOTS } from './battle-table'
import type { StadiumModel } from './model'
import { MOVE_COUNT, moveName, MOVES } from './names'
import { FRAME_RATE } from './scene'
import { jsonChunks, streamedArray, streamedObject } from '../../json-stream'

export interface AnimationSummary {
  index: number
  name: string
  frames: number
  seconds: number
  endBehavior: 'wrap' | 'clamp'
  loopStartFrame: number
  startFrame: number
  flagsRaw: number
  hermite: boolean
  pairedTextureAnimation: number
  contexts: string[]
  pipelineContexts: string[]
  moves: string[]
  moveIds: number[]
  moveCount: number
}

export interface ModelSummary {
  species: number
  name: string
  slug: string
  group: 'pokemon' | 'extra'
  sourceFile: string
  file: number
  glb: string
  textureDir: string
  triangles: number
  vertices: number
  bones: number
  textures: number
  generatedEffects: boolean
  animations: AnimationSummary[]
  textureAnimations: { index: number; frames: number; loopStartFrame: number; startFrame: number; hold: boolean; channels: number[][] }[]
  attachPoints: { id: number; bone: string | null }[]
  jointModes: number[]
  renderLayers: number[]
  orderDifferences: number
  crossBucketTriangles: number
  geoOpcodes: Record<string, number>
  persSzp: { patchCount: number; tail: number } | null
  warnings: string[]
  /** Battle rows for moves.json as (anim, aux) pairs, row r at [2r] and [2r + 1]; null without a table. */
  battleRows: Int16Array | null
  defaultAnim: number
}

export function summarizeModel(m: StadiumModel, scene: Scene): ModelSummary {
  const ex = (scene.extras ?? {}) as { triangles?: number; vertices?: number; warnings?: string[] }
  return {
    species: m.file < 151 ? m.file + 1 : m.species,
    name: m.name,
    slug: m.slug,
    group: m.file < 151 ? 'pokemon' : 'extra',
    sourceFile: `${m.file}.bin`,
    file: m.file,
    glb: `glb/${m.slug}.glb`,
    textureDir: `textures/${m.slug}`,
    triangles: ex.triangles ?? 0,
    vertices: ex.vertices ?? 0,
    bones: m.graph.bones.length,
    textures: scene.textures.length,
    generatedEffects: false,
    animations: m.animations.map((a, i) => {
      const l = m.labels.labels[i]!
      return {
        index: i, name: l.name, frames: a.frameCount, seconds: a.frameCount / FRAME_RATE, endBehavior: a.hold ? 'clamp' : 'wrap',
        loopStartFrame: a.loopStartFrame, startFrame: a.startFrame, flagsRaw: a.flags, hermite: a.hermite, pairedTextureAnimation: l.pairedTextureAnimation,
        // sorted by name, as the pipeline's manifest (build.py: sorted(set(...))); moveIds stay in id order
        contexts: [...l.contexts].sort(), pipelineContexts: [...l.pipelineContexts].sort(), moves: [...l.moves].sort(), moveIds: l.moveIds, moveCount: l.moves.length,
      }
    }),
    textureAnimations: m.textureAnimations.map((t) => ({ index: t.index, frames: t.frameCount, loopStartFrame: t.loopStartFrame, startFrame: t.startFrame, hold: t.hold, channels: t.channels.map((c) => c.stream) })),
    attachPoints: m.graph.attachPoints.map((a) => ({ id: a.id, bone: a.bone >= 0 ? m.graph.bones[a.bone]!.name : null })),
    jointModes: m.graph.bones.map((b) => b.rawFlags),
    renderLayers: m.dl?.layers ?? [],
    orderDifferences: m.orderDifferences,
    crossBucketTriangles: m.dl?.crossBucketTriangles ?? 0,
    geoOpcodes: m.layouts.reduce<Record<string, number>>((acc, l) => {
      for (const [k, n] of Object.entries(l.opcodes)) acc[k] = (acc[k] ?? 0) + n
      return acc
    }, {}),
    persSzp: m.container.container === 'pers-szp' ? { patchCount: m.container.patches.length, tail: (m.container.totalSize ?? 0) - (m.container.dataSize ?? 0) } : null,
    warnings: ex.warnings ?? m.warnings,
    // a typed array: 2 bytes a number, where an object per row made a third of a summary's size
    battleRows: m.battle ? Int16Array.from(m.battle.entries.flatMap((e) => [e.anim, e.aux])) : null,
    defaultAnim: m.labels.defaultAnim,
  }
}

/** A model an export left out, with why (manifest.json's `failed`, present only when there is one). */
export interface FailedModel {
  file: number
  sourceFile: string
  error: string
}

export interface RomInfo {
  source: string
  romMd5: string
  verified: boolean
  generator: string
}

/** How a member list is materialised: a plain array (the object form) or a streamed one (the text form). */
type ListOf = (items: Iterable<unknown>) => unknown

/** manifest.json's members in order; `pokemon` and `extra` are lists made by `list`. */
function manifestMembers(rom: RomInfo, models: ModelSummary[], list: ListOf, failed: FailedModel[] = []): [string, unknown][] {
  const slots: Record<string, unknown> = {}
  for (const s of CONTEXT_SLOTS) slots[String(s.slot)] = { name: s.name, pipelineName: s.pipelineName, evidence: s.evidence, description: s.description }
  function* entries(group: ModelSummary['group']) {
    for (const m of models) {
      if (m.group !== group) continue
      const { battleRows: _b, defaultAnim: _d, file: _f, ...rest } = m
      yield rest
    }
  }
  return [
    ['source', rom.source],
    ['romMd5', rom.romMd5],
    ['verified', rom.verified],
    ['generator', rom.generator],
    ['coordinateSystem', 'right-handed, Y up, +Z front; game units; the model_root node carries the geo layout root scale'],
    ['frameRate', FRAME_RATE],
    ['generatedEffects', false],
    ['animationSlots', slots],
    ['pokemon', list(entries('pokemon'))],
    ['extra', list(entries('extra'))],
    ...(failed.length ? [['failed', list(failed)] as [string, unknown]] : []),
  ]
}

/** moves.json's members in order; `moves` (one entry per move, built when listed) is made by `list`. */
function movesMembers(rom: RomInfo, models: ModelSummary[], list: ListOf): [string, unknown][] {
  const species = models.filter((m) => m.group === 'pokemon' && m.battleRows)
  function* moves() {
    for (let id = 1; id <= MOVE_COUNT; id++) yield moveEntry(id, species)
  }
  return [
    ['source', rom.source],
    ['note', 'The battle table is dense: every species has a row for every move, including moves it cannot learn. Use differsFromDefault / speciesWithOwnAnimation as the signal.'],
    ['moves', list(moves())],
  ]
}

function moveEntry(id: number, species: ModelSummary[]): Record<string, unknown> {
  const users: { species: number; name: string; animation: number; animationName: string; aux: number; differsFromDefault: boolean }[] = []
  for (const m of species) {
    const anim = m.battleRows![2 * (id - 1)]!
    const aux = m.battleRows![2 * (id - 1) + 1]!
    // Every species with a table is a user (the table is dense); a row naming an animation the
    // model does not have keeps its index and is called anim<i>, as in the pipeline's moves.json.
    const animationName = m.animations[anim]?.name ?? `anim${anim}`
    users.push({ species: m.species, name: m.name, animation: anim, animationName, aux, differsFromDefault: anim !== m.defaultAnim })
  }
  // most common first; ties in order of first appearance (species order), like Counter.most_common
  const tally = new Map<string, number>()
  for (const u of users) tally.set(u.animationName, (tally.get(u.animationName) ?? 0) + 1)
  return {
    id,
    name: moveName(id),
    constant: MOVES[id - 1],
    speciesWithOwnAnimation: users.filter((u) => u.differsFromDefault).length,
    animationNames: [...tally.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, species: n })),
    users,
  }
}

const plainList: ListOf = (items) => [...items]

/** manifest.json as one object (`JSON.stringify(…, null, 1)` of it is the file; see manifestText). */
export function buildManifest(rom: RomInfo, models: ModelSummary[], failed: FailedModel[] = []): Record<string, unknown> {
  return Object.fromEntries(manifestMembers(rom, models, plainList, failed))
}

/** moves.json as one object (see movesText). */
export function buildMovesJson(rom: RomInfo, models: ModelSummary[]): Record<string, unknown> {
  return Object.fromEntries(movesMembers(rom, models, plainList))
}

/**
 * The text of manifest.json, `JSON.stringify(buildManifest(…), null, 1) + '\n'` byte for byte, in
 * pieces (one per model entry): neither the whole object nor the whole string is ever in memory.
 */
export function* manifestText(rom: RomInfo, models: ModelSummary[], failed: FailedModel[] = []): Generator<string> {
  yield* jsonChunks(streamedObject(manifestMembers(rom, models, streamedArray, failed)))
  yield '\n'
}

/** The text of moves.json, `JSON.stringify(buildMovesJson(…), null, 1) + '\n'`, one piece per move. */
export function* movesText(rom: RomInfo, models: ModelSummary[]): Generator<string> {
  yield* jsonChunks(streamedObject(movesMembers(rom, models, streamedArray)))
  yield '\n'
}
