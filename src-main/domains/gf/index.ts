/** The node manifest of Pokémon Ultra Sun/Moon GF sets (see src-main/plugin/domain.ts). */
import { gfDomain } from '../../../src-shared/formats/gf/domain'
import { defineNodeDomain, lazyBuilder } from '../../plugin/domain'
import { gfFileDetectors, gfFolderDetectors } from './detector'

export const gfNode = defineNodeDomain({
  shared: gfDomain,
  fileDetectors: gfFileDetectors,
  folderDetectors: gfFolderDetectors,
  cli: { groups: ['gf'], load: async () => [...(await import('./commands')).gfCommands, ...(await import('./model-cli')).gfModelCommands, ...(await import('./garc-commands')).gfGarcCommands] },
  handlers: {
    channels: ['gf:textures', 'gf:texture', 'gf:previewReplace', 'gf:repack', 'gf:matchFolder', 'gf:exportPng', 'gf:exportAll', 'gf:model', 'gf:exportGlb', 'gf:writeMod', 'gf:exportSets', 'gf:cancelJob'],
    load: async () => {
      const [{ gfHandlers }, { gfModelHandlers }, { handlersNamingSetFolder }] = await Promise.all([import('./handlers'), import('./model-handlers'), import('./set-folder')])
      return handlersNamingSetFolder({ ...gfHandlers, ...gfModelHandlers })
    },
  },
  sceneBuilders: {
    'gf-model': lazyBuilder(() => import('./model-scene'), 'buildGfAssetScene'),
    'gf-motion': lazyBuilder(() => import('./model-scene'), 'buildGfAssetScene'),
    // a set inside the model archive (no model/motion children: indexing reads only the tables)
    'gf-garc-set': lazyBuilder(() => import('./model-scene'), 'buildGfAssetScene'),
  },
  // a model's set read and parsed (as its view's `gf:model` reads it), the model code imported
  warm: async (asset, source) => {
    if (asset.kind !== 'gf-model' && asset.kind !== 'gf-motion') return
    const [, { cachedSet, catalogSet }] = await Promise.all([import('./model-handlers'), import('./set-access')])
    await cachedSet(catalogSet(source.path), { lenient: true })
  },
})
