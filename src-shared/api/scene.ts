/** Scene domain of the API contract. Channels are `scene:verb`. */
import type { Scene } from "../scene/types"

/** Steps of an export, in order (`scene:progress`). */
export type SceneExportStage = "build" | "encode" | "write" | "done"

/** What an export wrote (the CLI's `modbench export --json` prints the same keys). */
export interface SceneExportSummary {
  id: number | "demo"
  kind: string
  name: string
  out: string
  bytes: number
  nodes: number
  meshes: number
  materials: number
  textures: number
  skins: number
  animations: number
  curves: number
}

export interface SceneApi {
  /** The neutral scene of an asset (model, actor, stage, skeleton) or of the built-in demo (`id: "demo"`). */
  "scene:open": { req: { id: number | "demo" }; res: Scene }
  /**
   * Writes the asset's scene as glTF binary to `out` (atomically; the CLI's `export` on the same
   * code). An existing `out` is refused with code `exists` unless `overwrite` is true; progress as
   * `scene:progress` events carrying `jobId`.
   */
  "scene:export": { req: { id: number | "demo"; out: string; overwrite?: boolean; jobId?: string }; res: SceneExportSummary }
}

export interface SceneEvents {
  "scene:progress": { jobId: string; stage: SceneExportStage; fraction: number }
}
