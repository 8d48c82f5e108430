/**
 * GF models and motions in the API contract (issue 11). `set` is the folder of a set. The scene
 * crosses as a neutral Scene; motions that cannot be read come back listed with their error.
 */
import type { Scene } from '../scene/types'
import type { GfReplacementReq } from './gf'
import type { GfSceneMotion } from '../formats/gf/scene'

/** A motion of the scene: its clip index, or its error when it cannot be read. */
export type { GfSceneMotion as GfSceneMotionInfo } from '../formats/gf/scene'

export interface GfBatchItem {
  set: string
  glb: string | null
  models: number
  motions: number
  error?: string
}

export interface GfModelApi {
  /**
   * The set as one skinned scene in a LOD, with every motion a clip (broken ones listed with their
   * error) and `variants` normal/shiny; pending texture replacements are shown instead of the
   * stored pixels (resampled to the texture's size).
   */
  'gf:model': {
    req: { set: string; lod?: 'high' | 'low'; replacements?: GfReplacementReq[] }
    res: { scene: Scene; lod: 'high' | 'low'; models: { entry: number; lod: 'high' | 'low'; error?: string }[]; motions: GfSceneMotion[]; warnings: string[] }
  }
  /**
   * The set's model as glTF binary to `out` (the CLI's `gf export` code): with the pending
   * `replacements` written instead of the stored textures when given (their PNG pixels, resampled
   * to the texture size), else the stored ones; unreadable motions are left out and counted in
   * `warnings`. An existing `out` is refused unless `overwrite`. `replaced`: how many it holds.
   */
  'gf:exportGlb': {
    req: { set: string; out: string; lod?: 'high' | 'low'; replacements?: GfReplacementReq[]; overwrite?: boolean }
    res: { out: string; bytes: number; replaced: number; warnings: number }
  }
  /**
   * "Write mod…": the pending replacements of several sets of one model archive written in one new
   * archive (every other entry byte for byte, as `gf garc pack` writes it), to `out` or into a
   * LayeredFS folder `<dir>/luma/titles/<title>/romfs/<path below romfs>`. Never over the archive
   * or inside the dump's romfs folder; an existing target is refused (code `exists`) unless
   * `overwrite`. Progress as `gf:progress` events with `jobId`, cancelled by `gf:cancelJob`
   * (nothing written).
   */
  'gf:writeMod': {
    req: { archive: string; sets: { set: number; replacements: GfReplacementReq[] }[]; target: { out: string } | { layeredfs: string; title: string }; jobId: string; resize?: boolean; overwrite?: boolean }
    res: { out: string; sets: { set: number; changed: string[]; replaced: number }[]; warnings: string[] }
  }
  /** Batch `gf export-all` of a folder into a new folder; progress as `gf:progress` events with `jobId`. */
  'gf:exportSets': { req: { dir: string; out: string; lod?: 'high' | 'low'; jobId: string }; res: { out: string; manifest: GfBatchItem[] } }
  /**
   * Cancels a running `gf:exportSets`, `gf:previewReplace` or `gf:repack` by its jobId: it rejects
   * with an error of code `cancelled` and writes nothing. `cancelled`: false when no such job runs.
   */
  'gf:cancelJob': { req: { jobId: string }; res: { cancelled: boolean } }
}
