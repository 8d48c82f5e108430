/**
 * Node-side Snap helpers (reading ROM files, gzip samples) and the `snap:*` service handlers.
 */
import { promises as fsp } from 'node:fs'
import { createHash } from 'node:crypto'
import { gunzipSync } from 'fflate'
import type { Handlers } from './context'
import { FormatError } from '../../src-shared/binary'
import { normaliseRom, openRom, type N64Rom } from '../../src-shared/formats/n64/rom'
import { parseStage, stageObjectCount, type Stage } from '../../src-shared/formats/snap/stage'
import { STAGES, stageByName } from '../../src-shared/formats/snap/stages'
import { sampleTrackWorld } from '../../src-shared/formats/snap/main-track'
import { buildStageScene } from '../../src-shared/formats/snap/stage-scene'
import type { Scene } from '../../src-shared/scene/types'
import type { SnapStageSummary, SnapTrack } from '../../src-shared/api/snap'
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'
import type { SceneBuildContext } from './scene-builders'

/** Bytes of a ROM file; `.gz` files (our bundled sample) are gunzipped. */
export async function readRomFile(file: string): Promise<Uint8Array> {
  const raw = new Uint8Array(await fsp.readFile(file))
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      return gunzipSync(raw)
    } catch (e) {
      throw new FormatError(`gzip data is corrupt: ${(e as Error).message}`, { file, offset: 0 })
    }
  }
  return raw
}

/** Opens a ROM as Pokémon Snap (MD5-verified, or unverified when only the header names it). */
export function openSnapRom(bytes: Uint8Array, file: string): N64Rom {
  const { image } = normaliseRom(bytes, file)
  const md5 = createHash('md5').update(image).digest('hex')
  const rom = openRom(image, file, md5)
  if (rom.game !== 'snap') {
    throw new FormatError(`not a Pokémon Snap ROM (header name ${JSON.stringify(rom.header.name)}, MD5 ${rom.md5})`, { file, structure: 'N64Header', offset: 0x20 })
  }
  return { ...rom, byteOrder: normaliseRom(bytes.subarray(0, 4), file).byteOrder }
}

export async function loadSnapRom(file: string): Promise<N64Rom> {
  return openSnapRom(await readRomFile(file), file)
}

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

/**
 * The seven stages. Strict: a stage that cannot be parsed fails the listing with its error (bad
 * input is exit 1 on the command line). With `lenient`, such a stage is listed with `error` and
 * zero counts instead, unless every stage fails (the app's overview uses this).
 */
export function listStages(rom: N64Rom, opts: { lenient?: boolean } = {}): SnapStageSummary[] {
  const errors: Error[] = []
  const list = STAGES.map((s): SnapStageSummary => {
    try {
      return stageSummary(parseStage(rom.image, s, rom.file, { light: true }))
    } catch (e) {
      if (!opts.lenient) throw e
      errors.push(e as Error)
      return { name: s.name, sceneId: s.overlayIndex, pathRooms: 0, nonPathRooms: 0, hasSkybox: false, objects: 0, title: s.title, overlayIndex: s.overlayIndex, gameSceneId: s.gameSceneId, error: (e as Error).message }
    }
  })
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
  if (!rom.verified) (scene.extras as Record<string, Record<string, unknown>>).snap!.unverified = true
  return { scene, warnings: stats.warnings }
}

export function requireStage(name: string): string {
  const s = stageByName(name)
  if (!s) throw new FormatError(`unknown stage ${JSON.stringify(name)}; one of ${STAGES.map((x) => x.name).join(', ')}`)
  return s.name
}

/** Handlers of the `snap:*` channels of src-shared/api/snap.ts. */
export const snapHandlers: Handlers = {
  'snap:stages': async (req, ctx) => {
    const file = ctx.allowPath(req.path, 'read')
    const rom = await loadSnapRom(file)
    return { verified: rom.verified, md5: rom.md5, stages: listStages(rom, { lenient: true }) }
  },
  'snap:track': async (req, ctx) => {
    const file = ctx.allowPath(req.path, 'read')
    return stageTrack(await loadSnapRom(file), requireStage(req.stage), req.samples ?? 8)
  },
}

/** Scene builder for `snap-stage` catalog assets (registered in scene-builders.ts). */
export async function buildSnapAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext): Promise<Scene> {
  const raw = await ctx.readSource(source)
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw
  const rom = openSnapRom(bytes, source.path)
  const stage = String(asset.locator.stage ?? '')
  return stageScene(rom, requireStage(stage)).scene
}
