/** The shared manifest of RE Engine motions and EMV Poser poses (see src-shared/domain.ts). */
import { count, defineDomain, num } from '../../domain'

const submeshes = (n: number | null) => (n === null ? null : `${n} submesh${n === 1 ? '' : 'es'}`)

export const reDomain = defineDomain({
  id: 're',
  title: 'RE Engine motions',
  about: { files: '.mot/.motlist, .mesh and EMV Poser JSON', does: 'pose a skeleton and save a game-loadable motlist; the Blender round trip through glTF.' },
  sourceKinds: {
    're-motlist': { actions: ['export'], label: 'RE Engine motion list', icon: '♞', editor: true },
    're-mot': { actions: ['export'], label: 'RE Engine motion', icon: '♞', editor: true },
    'emv-pose': { label: 'EMV Poser pose', icon: '◇', editor: true },
    're-mesh': { label: 'RE Engine mesh', icon: '▲' },
  },
  assetKinds: {
    're-motlist': { actions: ['export'], label: 'Motion list', icon: '♞', editor: true },
    're-mot': { actions: ['export'], label: 'Motion file', icon: '♞', editor: true },
    're-motion': { actions: ['export'], label: 'Motion', icon: '♪', editor: true, summary: (m) => [count(num(m, 'frames') ?? num(m, 'frameCount'), 'frame')] },
    'emv-pose': { label: 'EMV Poser pose file', icon: '◇', editor: true },
    'emv-pose-entry': { label: 'Pose', icon: '◇', editor: true },
    're-mesh': { label: 'Mesh', icon: '▲', hint: 'The skeleton of a character: give it to `re export --skeleton` with a motlist of the same character.', summary: (m) => [count(num(m, 'bones'), 'bone'), submeshes(num(m, 'submeshes')), count(num(m, 'triangles'), 'triangle')] },
  },
  welcome: [
    {
      id: 're', title: 'Pose an RE Engine skeleton', sources: ['re-motlist', 're-mot'],
      text: 'Open a template motlist, rotate bones (or apply an EMV Poser pose) and save a game-loadable .motlist.',
    },
  ],
})
