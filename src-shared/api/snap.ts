/** Snap domain of the API contract. Channels are `snap:verb`. */

export interface SnapStageSummary {
  name: 'beach' | 'tunnel' | 'cave' | 'river' | 'volcano' | 'valley' | 'rainbow'
  /** Overlay-table index (0x10 Beach … 0x1C Rainbow Cloud); the seed's "scene id". */
  sceneId: number
  pathRooms: number
  nonPathRooms: number
  hasSkybox: boolean
  /** Object spawns across all rooms. */
  objects: number
  title: string
  overlayIndex: number
  /** The game's SceneIds enum value. */
  gameSceneId: number
  /** Set when this stage could not be parsed (the counts are then 0). */
  error?: string
}

export interface SnapTrackBlock {
  /** Path-room index. */
  room: number
  /** worldPos × 100, game units. */
  position: [number, number, number]
  yaw: number
  /** The blended control line (cpTime 0.5), block-local, before yaw and position. */
  controlPoints: [number, number, number][]
  reversed: boolean
  duration: number
}

export interface SnapTrack {
  blocks: SnapTrackBlock[]
  /** World-space samples, N per B-spline segment. */
  world: [number, number, number][]
  warnings: string[]
}

export interface SnapApi {
  'snap:stages': { req: { path: string }; res: { verified: boolean; md5: string; stages: SnapStageSummary[] } }
  'snap:track': { req: { path: string; stage: string; samples?: number }; res: SnapTrack }
}
