/** Pokémon Snap's shared manifest (see src-shared/domain.ts). */
import { count, defineDomain, num } from '../../domain'

export const snapDomain = defineDomain({
  id: 'snap',
  title: 'Pokémon Snap',
  about: { files: 'N64 ROM', does: 'stages (rooms, skybox, the rail and object paths) and the Pokémon on them, skinned and animated; glTF export.' },
  sourceKinds: {
    'snap-rom': { label: 'Pokémon Snap ROM', icon: '◆', hint: 'A Pokémon Snap ROM. Its stages are inside the game entry below: open one to fly through it.' },
  },
  assetKinds: {
    'snap-game': { label: 'Game', icon: '▣', hint: 'Pokémon Snap’s stages. Open one to see its rooms, skybox, rail and object paths.' },
    'snap-stage': {
      actions: ['export'], label: 'Stage', icon: '▲', scene: true, editor: true, landmark: true,
      summary: (m) => [count((num(m, 'pathRooms') ?? 0) + (num(m, 'nonPathRooms') ?? 0), 'room'), count(num(m, 'objects'), 'spawn')],
    },
    'snap-room-group': { label: 'Room group', icon: '▤', editor: true, hint: 'Rooms of a stage. Open one to see the whole stage with that room highlighted.' },
    'snap-room': { actions: ['export'], label: 'Room', icon: '□', scene: true, editor: true },
    'snap-skybox': { label: 'Skybox', icon: '○', editor: true, hint: 'The stage’s skybox: open the stage (above) and toggle Skybox to see it.' },
    'snap-track': { actions: ['export'], label: 'Main track', icon: '∿', scene: true, editor: true },
    'snap-actors': {
      label: 'Actors', icon: '◆', hint: 'The actors this stage can show: its Pokémon (some models live in a shared overlay), the Zero-One and common objects. Open one to see its skeleton and animations.',
      summary: (m) => [count(num(m, 'count'), 'actor')],
    },
    'snap-actor': {
      actions: ['export'], label: 'Actor', icon: '◇', scene: true, editor: true,
      summary: (m) => [count(num(m, 'spawns'), 'spawn'), count(Array.isArray(m.animations) ? m.animations.length : null, 'animation')],
    },
    'snap-spawns': { label: 'Spawns', icon: '✦', hint: 'The objects this stage spawns, with their positions; their actors are under Actors.' },
    'snap-spawn': { label: 'Spawn', icon: '·', hint: 'An object spawn of this stage; its id and position are in the Inspector.' },
  },
  welcome: [
    {
      id: 'snap', title: 'Explore a Pokémon Snap stage', sources: ['snap-rom'], opens: 'snap-stage',
      text: 'Rooms placed in the world, the skybox, the Zero-One’s rail and the objects’ paths; ride the rail camera.',
    },
  ],
})
