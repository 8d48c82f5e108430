/** Pokémon Stadium's node manifest (see src-main/plugin/domain.ts). */
import { stadiumDomain } from '../../../src-shared/formats/stadium/domain'
import { stadiumRomId } from '../../../src-shared/formats/stadium/rom-id'
import { defineNodeDomain, lazyBuilder } from '../../plugin/domain'
import { enumerateStadiumRom, looksLikeStadiumImage } from './detector'

const model = lazyBuilder(() => import('./scene-builder'), 'buildStadiumAssetScene')

export const stadiumNode = defineNodeDomain({
  shared: stadiumDomain,
  n64Games: [{ identity: stadiumRomId, sourceKind: 'stadium-rom', looksLike: looksLikeStadiumImage, enumerate: enumerateStadiumRom }],
  cli: { groups: ['stadium'], load: () => import('./commands').then((m) => m.stadiumCommands) },
  handlers: { channels: ['stadium:model', 'stadium:export'], load: () => import('./handlers').then((m) => m.stadiumHandlers) },
  sceneBuilders: { 'stadium-model': model, 'stadium-animation': model },
  // the ROM opened, the model code imported, while the page loads the view's code
  warm: (_asset, source) => Promise.all([import('./scene-builder'), import('./rom-cache').then((m) => m.romOf(source))]),
})
