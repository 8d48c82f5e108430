/**
 * One GF set → glTF binary (CLI.md `gf export`): the neutral scene of `buildGfScene` (strict
 * motions: one unreadable motion fails the export) through the format-free exporter.
 */
import { exportGlb } from '../../../src-shared/export/gltf'
import { FormatError } from '../../../src-shared/binary/errors'
import type { Texture } from '../../../src-shared/scene/types'
import type { GfSet } from '../../../src-shared/formats/gf/gf-set'
import { buildGfScene, type GfSceneResult } from '../../../src-shared/formats/gf/scene'
import type { TextureOverride } from '../../../src-shared/formats/gf/scene-materials'
import type { GfLod } from '../../../src-shared/formats/gf/set-models'

export interface SetExportOptions {
  lod?: GfLod
  motions?: boolean
  name?: string
  /** Pixels to write instead of stored textures (pending replacements). */
  textureOverride?: TextureOverride
  /** Throw on the first unreadable motion (default true, the CLI's rule); false lists it as a warning. */
  strictMotions?: boolean
  /** PNG bytes of a texture (a batch's cache, png-cache.ts); default: the exporter encodes each. */
  png?: (t: Texture) => Uint8Array
}

export interface SetExport {
  glb: Uint8Array
  result: GfSceneResult
}

export async function exportSetGlb(set: GfSet, opts: SetExportOptions = {}): Promise<SetExport> {
  // buildGfScene has checked the scene (sceneProblems) and names the model in its error.
  const result = buildGfScene(set, { lod: opts.lod, motions: opts.motions, strictMotions: opts.strictMotions ?? true, name: opts.name, textureOverride: opts.textureOverride })
  const texturePngs = opts.png ? result.scene.textures.map(opts.png) : undefined
  // the default generator, as `export ID` writes it: the same set exports to the same bytes either way
  const glb = await exportGlb(result.scene, { skipValidation: true, texturePngs })
  return { glb, result }
}

/** A set's failure as a batch manifest states it: a FormatError's message (file, structure, offset), else `Name: message`. */
export function setErrorText(e: unknown): string {
  if (e instanceof FormatError) return e.message
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e)
}

/** Parses `--lod`; undefined when absent. */
export { lodOption } from './lod-option'
