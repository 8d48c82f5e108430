/**
 * The scene-builder contract: what a domain's `sceneBuilders` entry is given and returns. A builder
 * reads what it needs through `ctx` (or its own readers), returns a scene that passes
 * `validateScene`, and throws a FormatError (file, structure, offset) for bad input. The platform
 * calls it through `buildAssetScene` (src-main/services/scene-builders.ts).
 */
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'
import type { Scene } from '../../src-shared/scene/types'
import type { CatalogAccess } from './context'

export interface SceneBuildContext {
  catalog: CatalogAccess
  /** The whole source file (read once per build and cached). */
  readSource(source: SourceRow): Promise<Uint8Array>
  signal?: AbortSignal
}

export type SceneBuilder = (asset: AssetRow, source: SourceRow, ctx: SceneBuildContext) => Promise<Scene>
