/** The shared manifest of RE Engine motions and EMV Poser poses (see src-shared/domain.ts). */
import { count, defineDomain, num } from '../../domain'

export const reDomain = defineDomain({
  id: 're',
  title: 'RE Engine motions',
  sourceKinds: {
    're-motlist': { actions: ['export'], label: 'RE Engine motion list', icon: '♞', editor: true },
    're-mot': { actions: ['export'], label: 'RE Engine motion', icon: '♞', editor: true },
    'emv-pose': { label: 'EMV Poser pose', icon: '◇', editor: true },
  },
  assetKinds: {
    're-motlist': { actions: ['export'], label: 'Motion list', icon: '♞', editor: true },
    're-mot': { actions: ['export'], label: 'Motion file', icon: '♞', editor: true },
    're-motion': { actions: ['export'], label: 'Motion', icon: '♪', editor: true, summary: (m) => [count(num(m, 'frames') ?? num(m, 'frameCount'), 'frame')] },
    'emv-pose': { label: 'EMV Poser pose file', icon: '◇', editor: true },
    'emv-pose-entry': { label: 'Pose', icon: '◇', editor: true },
  },
  welcome: [
    {
      id: 're', title: 'Pose an RE Engine skeleton', sources: ['re-motlist', 're-mot'],
      text: 'Open a template motlist, rotate bones (or apply an EMV Poser pose) and save a game-loadable .motlist.',
    },
  ],
})
