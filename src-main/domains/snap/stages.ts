/** Snap stages for the CLI and the services: summaries, the main track, the stage scene. */
import { FormatError, Reader, hex } from '../../../src-shared/binary'
import { stageEntriesEmpty } from '../../../src-shared/formats/snap/overlay'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import { parseStage, stageObjectCount, type Stage } from '../../../src-shared/formats/snap/stage'
import { STAGES, stageByName } from '../../../src-shared/formats/snap/stages'
import { sampleTrackWorld } from '../../../src-shared/formats/snap/main-track'
import { buildStageScene } from '../../../src-shared/formats/snap/stage-scene'
import type { Scene } from '../../../src-shared/scene/types'
import { sceneProblems } from '../../../src-shared/scene/validate'
import type { SnapStageSummary, SnapTrack } from '../../../src-shared/api/snap'

export function stageSummary(st: Stage): SnapStageSummary {
  return {
    name: st.info.name,
    sceneId: st.info.overlayIndex,
    pathRooms: st.pathRooms.length,
    nonPathRooms: st.nonPathRooms.length,
    hasSkybox: st.skybox !== null,
    objects: stageObjectCount(st),
    title: st.info.title,
    overlayIndex: st.info.overlayIndex,
    gameSceneId: st.info.gameSceneId,
  }
}

/** Stages whose Data and Code overlay entries are all zero: not laid out in this image. */
export function absentStages(rom: N64Rom): string[] {
  const r = new Reader(rom.image, { endian: 'big', file: rom.file, structure: 'ROM' })
  return STAGES.filter((s) => stageEntriesEmpty(r, s.overlayIndex)).map((s) => s.name)
}

/**
 * The stages of the image. Strict (the command line): a stage that is present but cannot be
 * parsed fails the listing with its error (bad input is exit 1). A stage whose two overlay-table
 * entries are all zero is absent (a partial image laying out only some stages) and is left out of
 * the list; when every stage is absent (a zeroed overlay table) the first stage's error is thrown.
 * With `lenient` (the app's overview), every stage is listed, a failing or absent one with `error`
 * and zero counts, unless every stage fails.
 */
export function listStages(rom: N64Rom, opts: { lenient?: boolean } = {}): SnapStageSummary[] {
  const errors: Error[] = []
  const absent = new Set(absentStages(rom))
  const list: SnapStageSummary[] = []
  for (const s of STAGES) {
    if (absent.size < STAGES.length && absent.has(s.name) && !opts.lenient) continue
    try {
      list.push(stageSummary(parseStage(rom.image, s, rom.file, { light: true })))
    } catch (e) {
      if (!opts.lenient) throw e
      errors.push(e as Error)
      list.push({ name: s.name, sceneId: s.overlayIndex, pathRooms: 0, nonPathRooms: 0, hasSkybox: false, objects: 0, title: s.title, overlayIndex: s.overlayIndex, gameSceneId: s.gameSceneId, error: absent.has(s.name) ? `not in this image (overlay entries ${hex(s.overlayIndex)}/${hex(s.overlayIndex + 1)} are empty)` : (e as Error).message })
    }
  }
  if (errors.length === STAGES.length) throw errors[0]!
  return list
}

export function stageTrack(rom: N64Rom, stage: string, samples = 8): SnapTrack {
  const st = parseStage(rom.image, stage, rom.file)
  return {
    blocks: st.track.map((b) => ({ room: b.room, position: b.position, yaw: b.yaw, controlPoints: b.controlPoints, reversed: b.reversed, duration: b.duration })),
    world: sampleTrackWorld(st.track, samples),
    warnings: st.warnings,
  }
}

export function stageScene(rom: N64Rom, stage: string): { scene: Scene; warnings: string[] } {
  const st = parseStage(rom.image, stage, rom.file)
  const { scene, stats } = buildStageScene(st)
  // A value the readers let through (a non-finite float deep in a room) must still fail as this
  // ROM's error, not as an anonymous scene's one at export time.
  const problems = sceneProblems(scene, 4)
  if (problems.length) throw new FormatError(`stage data gives an invalid scene: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, { file: rom.file, structure: `stage ${st.info.name}` })
  if (!rom.verified) (scene.extras as Record<string, Record<string, unknown>>).snap!.unverified = true
  return { scene, warnings: stats.warnings }
}

export function requireStage(name: string): string {
  const s = stageByName(name)
  if (!s) throw new FormatError(`unknown stage ${JSON.stringify(name)}; one of ${STAGES.map((x) => x.name).join(', ')}`)
  return s.name
}

