/** Scene domain of the API contract. Channels are `scene:verb`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SceneApi {
  /** The neutral scene of an asset (model, actor, stage, skeleton) or of the built-in demo (`id: "demo"`). */
  "scene:open": { req: { id: number | "demo" }; res: import("../scene/types").Scene }
}
