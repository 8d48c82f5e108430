/** Pokémon Stadium's shared manifest (see src-shared/domain.ts). */
import { count, defineDomain, num } from '../../domain'

export const stadiumDomain = defineDomain({
  id: 'stadium',
  title: 'Pokémon Stadium',
  about: { files: 'N64 ROM', does: 'battle models with skeletons, animations, eye animations and move labels; glTF export.' },
  sourceKinds: {
    'stadium-rom': { label: 'Pokémon Stadium ROM', icon: '◆', hint: 'A Pokémon Stadium ROM. Its models are inside the game entry below.' },
  },
  assetKinds: {
    'stadium-game': { label: 'Game', icon: '▣', hint: 'Battle models (species first, then other models). Open one to see it animated.' },
    'stadium-model': {
      actions: ['export'], label: 'Model', icon: '●', scene: true, editor: true, landmark: true,
      summary: (m) => [count(num(m, 'bones'), 'bone'), count(num(m, 'animations'), 'animation')],
    },
    'stadium-animation': { actions: ['export'], label: 'Animation', icon: '♪', scene: true, editor: true, summary: (m) => [count(num(m, 'frames') ?? num(m, 'frameCount'), 'frame')] },
  },
  welcome: [
    {
      id: 'stadium', title: 'View a Pokémon Stadium model', sources: ['stadium-rom'], opens: 'stadium-model',
      text: 'Battle models with their skeletons, animations and eye animations; pick a move to see what the species plays.',
    },
  ],
})
