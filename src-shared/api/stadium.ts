/** Stadium domain of the API contract. Channels are `stadium:verb`. */

export interface StadiumAnimationInfo {
  index: number
  name: string
  frames: number
  startFrame: number
  loopStartFrame: number
  endBehavior: 'wrap' | 'clamp'
  hermite: boolean
  pairedTextureAnimation: number
  contexts: string[]
  moves: string[]
}

export interface StadiumMoveRow {
  id: number
  name: string
  /** Animation this model plays for the move, −1 without a battle table. */
  animation: number
  animationName: string
  differsFromDefault: boolean
  /** Entry byte 0xB: where ordinary move playback starts ("as in battle"). */
  playStartFrame: number
  /** Texture animation set with the move, −1 for none. */
  aux: number
}

export interface StadiumModelInfo {
  assetId: number
  file: number
  name: string
  slug: string
  species: number
  bones: number
  animations: StadiumAnimationInfo[]
  textureAnimations: { index: number; frames: number; startFrame: number; loopStartFrame: number; hold: boolean }[]
  moves: StadiumMoveRow[]
  attachPoints: { id: number; bone: string | null }[]
  /** Catalog ids of every model of the same ROM, in file order (for prev/next/random). */
  siblings: { id: number; name: string }[]
  warnings: string[]
}

export interface StadiumApi {
  /** Labels, moves and siblings of a `stadium-model` (or `stadium-animation`) catalog asset. */
  'stadium:model': { req: { id: number }; res: StadiumModelInfo }
  /**
   * Exports the whole ROM of a catalog asset to a new folder (glb + manifest.json + moves.json).
   * A model that cannot be read is left out and listed in `failed` (and manifest.json) with its error.
   */
  'stadium:export': { req: { id: number; out: string }; res: { out: string; models: number; files: number; failed: { file: number; sourceFile: string; error: string }[] } }
}
