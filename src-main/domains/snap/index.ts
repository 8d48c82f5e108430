/** Pokémon Snap's node manifest (see src-main/plugin/domain.ts). */
import { snapDomain } from '../../../src-shared/formats/snap/domain'
import { hasSnapLayout } from '../../../src-shared/formats/snap/overlay'
import { snapRomId } from '../../../src-shared/formats/snap/rom-id'
import { defineNodeDomain, lazyBuilder } from '../../plugin/domain'
import { enumerateSnapRom } from './detector'

const stage = lazyBuilder(() => import('./scene-builder'), 'buildSnapAssetScene')
const actor = lazyBuilder(() => import('./actor-index'), 'buildSnapActorAssetScene')

export const snapNode = defineNodeDomain({
  shared: snapDomain,
  n64Games: [{ identity: snapRomId, sourceKind: 'snap-rom', looksLike: (image) => hasSnapLayout(image), enumerate: enumerateSnapRom }],
  cli: { groups: ['snap'], load: () => import('./commands').then((m) => m.snapCommands) },
  handlers: { channels: ['snap:stages', 'snap:track'], load: () => import('./handlers').then((m) => m.snapHandlers) },
  sceneBuilders: { 'snap-stage': stage, 'snap-room': stage, 'snap-track': stage, 'snap-actor': actor },
  // the ROM read and hashed, the stage code imported, while the page loads the view's code
  warm: (asset, source) => Promise.all([asset.kind === 'snap-actor' ? import('./actor-index') : import('./scene-builder'), import('./rom-file').then((m) => m.snapRomOf(source.path))]),
})
