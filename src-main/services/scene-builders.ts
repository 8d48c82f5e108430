/**
 * Which code turns a catalog asset into a neutral scene, by asset kind: the `sceneBuilders` of the
 * registered domain manifests (src-main/plugin/registry.ts), one per kind that the shared manifest
 * marks `scene: true`; the builder contract is src-main/plugin/scene-builder.ts.
 * The export command, the `scene:open` service and the viewport all go through `buildAssetScene`.
 */
import { promises as fsp } from 'node:fs'
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'
import type { Scene } from '../../src-shared/scene/types'
import { validateScene } from '../../src-shared/scene/validate'
import { demoScene } from '../../src-shared/scene/demo'
import type { CatalogAccess } from '../plugin/context'
import { sceneBuilders } from '../plugin/registry'
import type { SceneBuildContext } from '../plugin/scene-builder'

export { sceneBuilders }

/** Reasons a scene cannot be opened that are the user's input, not a bug: exit code 1. */
export class SceneOpenError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SceneOpenError'
  }
}

/**
 * The asset's kind has no scene at all (a spawn, a texture): `code` 'no-scene' travels in the API
 * error reply, so the UI shows its overview instead of an error without matching message text.
 */
export class NoSceneError extends SceneOpenError {
  readonly code = 'no-scene'
  constructor(message: string) {
    super(message)
    this.name = 'NoSceneError'
  }
}

export function sceneKinds(): string[] {
  return Object.keys(sceneBuilders).sort()
}

/** The neutral scene of a catalog asset (or of the demo for `"demo"`), validated. */
export async function buildAssetScene(catalog: CatalogAccess | null, id: number | 'demo', opts: { signal?: AbortSignal } = {}): Promise<{ scene: Scene; asset?: AssetRow; source?: SourceRow }> {
  if (id === 'demo') return { scene: validateScene(demoScene()) }
  if (!catalog) throw new SceneOpenError(`no catalog to look up asset ${id} in`)
  if (!Number.isInteger(id) || id < 0) throw new SceneOpenError(`asset id must be a whole number or "demo", got ${String(id)}`)
  const asset = catalog.asset(id)
  if (!asset) throw new SceneOpenError(`no asset with id ${id} in the catalog ${catalog.path} (see \`modbench ls\`)`)
  const builder = sceneBuilders[asset.kind]
  if (!builder) {
    const kinds = sceneKinds()
    const article = /^[aeiou]/i.test(asset.kind) ? 'an' : 'a'
    throw new NoSceneError(`asset ${id} '${asset.name}' is ${article} ${asset.kind}, which has no 3D scene to open or export${kinds.length ? ` (scene kinds: ${kinds.join(', ')})` : ''}`)
  }
  const source = catalog.source(asset.sourceId)
  if (!source) throw new SceneOpenError(`asset ${id}: its source ${asset.sourceId} is missing from the catalog`)
  const cache = new Map<number, Promise<Uint8Array>>()
  const ctx: SceneBuildContext = {
    catalog,
    signal: opts.signal,
    readSource(src) {
      let p = cache.get(src.id)
      if (!p) {
        p = fsp.readFile(src.path).then(
          (b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
          (e: NodeJS.ErrnoException) => {
            throw new SceneOpenError(`cannot read ${src.path}: ${e.code === 'ENOENT' ? 'the file is gone (re-index it)' : e.message}`)
          },
        )
        cache.set(src.id, p)
      }
      return p
    },
  }
  const scene = await builder(asset, source, ctx)
  return { scene: validateScene(scene), asset, source }
}
