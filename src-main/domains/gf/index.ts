/** The node manifest of Pokémon Ultra Sun/Moon GF sets (see src-main/domains/domain.ts). */
import { gfDomain } from '../../../src-shared/formats/gf/domain'
import { defineNodeDomain } from '../domain'
import { gfFileDetectors, gfFolderDetectors } from './detector'

export const gfNode = defineNodeDomain({
  shared: gfDomain,
  fileDetectors: gfFileDetectors,
  folderDetectors: gfFolderDetectors,
  cli: { groups: ['gf'], load: () => import('./commands').then((m) => m.gfCommands) },
  handlers: {
    channels: ['gf:textures', 'gf:texture', 'gf:previewReplace', 'gf:repack', 'gf:cancel', 'gf:exportPng', 'gf:exportAll'],
    load: () => import('./handlers').then((m) => m.gfHandlers),
  },
})
