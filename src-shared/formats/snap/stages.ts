/**
 * The seven Pokémon Snap stages of the US 1.0 layout: overlay-table index ("scene id" in the
 * seed and noclip; not the game's SceneIds enum) and the fixed per-stage addresses of
 * pokemon-snap.md §2.1–§2.2.
 */

export type StageName = 'beach' | 'tunnel' | 'cave' | 'river' | 'volcano' | 'valley' | 'rainbow'

export interface StageInfo {
  name: StageName
  title: string
  /** Overlay-table index of the Data overlay (Code is `overlayIndex + 1`). */
  overlayIndex: number
  /** The game's `SceneIds` value [D: include/enums.h]. */
  gameSceneId: number
  photo: { rom: number; ram: number; length: number }
  /** &WorldSetup. */
  header: number
  /** PokemonDef table. */
  objects: number
  /** &HeightMap, 0 = none. */
  collision: number
}

export const STAGES: readonly StageInfo[] = [
  { name: 'beach', title: 'Beach', overlayIndex: 0x10, gameSceneId: 0, photo: { rom: 0x0013c780, ram: 0x801b0310, length: 0x26530 }, header: 0x8011b914, objects: 0x802cbee4, collision: 0x80318f00 },
  { name: 'tunnel', title: 'Tunnel', overlayIndex: 0x12, gameSceneId: 1, photo: { rom: 0x001d1d90, ram: 0x8018bc50, length: 0x240e0 }, header: 0x8011e6cc, objects: 0x802edfac, collision: 0x80326ee0 },
  { name: 'cave', title: 'Cave', overlayIndex: 0x14, gameSceneId: 4, photo: { rom: 0x0027ab80, ram: 0x801aedf0, length: 0x1f610 }, header: 0x8012a0e8, objects: 0x802c6234, collision: 0x80317610 },
  { name: 'river', title: 'River', overlayIndex: 0x16, gameSceneId: 3, photo: { rom: 0x0030af90, ram: 0x8019aee0, length: 0x1bc80 }, header: 0x8012ac90, objects: 0x802e271c, collision: 0x80321560 },
  { name: 'volcano', title: 'Volcano', overlayIndex: 0x18, gameSceneId: 2, photo: { rom: 0x003d0560, ram: 0x801a9900, length: 0x25e70 }, header: 0x800fffb8, objects: 0x802e0d44, collision: 0x8031d4d0 },
  { name: 'valley', title: 'Valley', overlayIndex: 0x1a, gameSceneId: 5, photo: { rom: 0x0047cf30, ram: 0x80186b10, length: 0x2b230 }, header: 0x80100720, objects: 0x802d282c, collision: 0x8031f9c0 },
  { name: 'rainbow', title: 'Rainbow Cloud', overlayIndex: 0x1c, gameSceneId: 6, photo: { rom: 0x004ec000, ram: 0x80139c50, length: 0x04610 }, header: 0x800f5da0, objects: 0x8034ab34, collision: 0 },
]

/** Overlay index of the common archive (app_level + world), loaded with every stage. */
export const COMMON_OVERLAY_INDEX = 0x0e

export function stageByName(name: string): StageInfo | undefined {
  const n = name.toLowerCase()
  return STAGES.find((s) => s.name === n || s.title.toLowerCase() === n || `0x${s.overlayIndex.toString(16)}` === n)
}
