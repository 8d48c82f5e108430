/**
 * Node-side Snap helpers (reading ROM files, gzip samples) and the `snap:*` service handlers.
 */
import { promises as fsp } from 'node:fs'
import { createHash } from 'node:crypto'
import { gunzipSync } from 'fflate'
import type { Handlers } from './context'
import { FormatError, Reader, hex } from '../../src-shared/binary'
import { hasSnapLayout, stageEntriesEmpty } from '../../src-shared/formats/snap/overlay'
import { normaliseRom, openRom, type N64Rom } from '../../src-shared/formats/n64/rom'
import { parseStage, stageObjectCount, type Stage } from '../../src-shared/formats/snap/stage'
import { STAGES, stageByName } from '../../src-shared/formats/snap/stages'
import { sampleTrackWorld } from '../../src-shared/formats/snap/main-track'
import { buildStageScene } from '../../src-shared/formats/snap/stage-scene'
import type { Scene } from '../../src-shared/scene/types'
import { sceneProblems } from '../../src-shared/scene/validate'
import type { SnapStageSummary, SnapTrack } from '../../src-shared/api/snap'
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'
import type { SceneBuildContext } from './scene-builders'

const MAX_ROM_UNPACKED = 128 * 1024 * 1024

/**
 * The raw bytes of a ROM file, refusing (as this file's FormatError) one larger than any N64 image
 * before reading it, and naming the file when it cannot be read at all.
 */
export async function readRomBytes(file: string): Promise<Uint8Array> {
  let size: number
  try {
    size = (await fsp.stat(file)).size
  } catch (e) {
    throw new FormatError(`cannot read the file: ${(e as Error).message}`, { file })
  }
  if (size > MAX_ROM_UNPACKED) throw new FormatError(`${size} bytes is larger than any N64 image (at most 64 MiB; limit ${MAX_ROM_UNPACKED})`, { file, offset: MAX_ROM_UNPACKED })
  try {
    return new Uint8Array(await fsp.readFile(file))
  } catch (e) {
    throw new FormatError(`cannot read the file: ${(e as Error).message}`, { file })
  }
}

/** Bytes of a ROM file; `.gz` files (our bundled sample) are gunzipped. */
export async function readRomFile(file: string): Promise<Uint8Array> {
  const raw = await readRomBytes(file)
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    // ISIZE (the trailer's last 4 bytes, little endian) is the unpacked size: an N64 image is at
    // most 64 MiB, so a larger one is refused before inflating (a gzip bomb).
    const isize = raw.length >= 18 ? (raw[raw.length - 4]! | (raw[raw.length - 3]! << 8) | (raw[raw.length - 2]! << 16) | (raw[raw.length - 1]! << 24)) >>> 0 : 0
    if (isize > MAX_ROM_UNPACKED) throw new FormatError(`gzip member unpacks to ${isize} bytes, more than the ${MAX_ROM_UNPACKED}-byte limit for an N64 image`, { file, structure: 'gzip trailer ISIZE', offset: raw.length - 4 })
    try {
      return gunzipSync(raw)
    } catch (e) {
      throw new FormatError(`gzip data is corrupt: ${(e as Error).message}`, { file, offset: 0 })
    }
  }
  return raw
}

/**
 * Opens a ROM as Pokémon Snap: MD5-verified, or unverified when the header names the game, or
 * (for `snap` commands, which say what the file is) when the header names no known game but the
 * overlay table has the Snap layout (`headerMismatch`: callers warn). A verified Stadium image or an
 * image without the layout is refused.
 */
export function openSnapRom(bytes: Uint8Array, file: string): N64Rom & { headerMismatch?: boolean } {
  const { image } = normaliseRom(bytes, file)
  const md5 = createHash('md5').update(image).digest('hex')
  const rom = openRom(image, file, md5)
  const byteOrder = normaliseRom(bytes.subarray(0, 4), file).byteOrder
  if (rom.game === 'snap') return { ...rom, byteOrder }
  if (!(rom.game === 'other' && hasSnapLayout(image, file))) {
    throw new FormatError(`not a Pokémon Snap ROM (header name ${JSON.stringify(rom.header.name)}, MD5 ${rom.md5})`, { file, structure: 'N64Header', offset: 0x20 })
  }
  return { ...rom, game: 'snap', byteOrder, headerMismatch: true }
}

export async function loadSnapRom(file: string): Promise<N64Rom & { headerMismatch?: boolean }> {
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
