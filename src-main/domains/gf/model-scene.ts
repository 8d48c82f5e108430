/**
 * Scene builder for the catalog's `gf-model`, `gf-motion` and `gf-garc-set` assets (SceneBuilder
 * shape of services/scene-builders.ts): the whole set as one skinned scene (buildGfScene), in the
 * asset's LOD; a motion asset opens the high-poly model with that motion's clip selected; a set
 * inside the model archive (`ARCHIVE#N`, indexed from the archive's tables only, so it has no
 * model or motion children) opens its high-poly model with every motion, named as the folder
 * `gf garc extract` writes it (`0012`). Motions that cannot be read are listed broken in
 * `scene.extras.gf.motions` while the model still opens. A model or set asset's scene is the one
 * `gf export` writes for the set (same name, same extras: the warnings are the views' and `gf
 * export`'s to show, not the file's), so `export ID` writes the same glb bytes.
 */
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import type { Scene } from '../../../src-shared/scene/types'
import { FormatError } from '../../../src-shared/binary/errors'
import { buildGfScene, type GfSceneOptions } from '../../../src-shared/formats/gf/scene'
import { garcSetLabel } from '../../../src-shared/formats/gf/garc-set'
import { cachedSet, catalogSet } from './set-access'
import { setSceneName } from './set-folder'
import type { SceneBuildContext } from '../../plugin/scene-builder'

/** The set an asset shows, as the services name it: its source folder, or `ARCHIVE#N`. */
function assetSet(asset: AssetRow, source: SourceRow): string {
  if (asset.kind !== 'gf-garc-set') return source.path
  const n = asset.locator.set
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new FormatError(`asset ${asset.id} '${asset.name}' has no set number (re-index the archive)`, { file: source.path, structure: 'catalog locator' })
  return garcSetLabel(source.path, n)
}

export async function buildGfAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext, opts: Pick<GfSceneOptions, 'textureOverride'> = {}): Promise<Scene> {
  const set = await cachedSet(catalogSet(assetSet(asset, source)), { lenient: true })
  ctx.signal?.throwIfAborted()
  const entry = Number(asset.locator.entry)
  const lod = asset.kind === 'gf-model' && entry !== 0 ? 'low' : 'high'
  const r = buildGfScene(set, { lod, name: setSceneName(set), ...opts })
  if (asset.kind === 'gf-motion') {
    const m = r.motions.find((x) => x.file === asset.locator.file && x.entry === entry)
    if (m?.animation !== undefined) r.scene.extras = { ...r.scene.extras, selectedAnimation: m.animation }
  }
  return r.scene
}
