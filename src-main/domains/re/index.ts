/** The node manifest of RE Engine motions and EMV Poser poses (see src-main/plugin/domain.ts). */
import { reDomain } from '../../../src-shared/formats/re/domain'
import { defineNodeDomain } from '../../plugin/domain'
import { reFileDetectors, reFolderDetectors } from './detector'

export const reNode = defineNodeDomain({
  shared: reDomain,
  fileDetectors: reFileDetectors,
  folderDetectors: reFolderDetectors,
  cli: {
    groups: ['re'],
    load: () => Promise.all([import('./commands'), import('./gltf-commands'), import('./mesh-commands')]).then(([m, g, k]) => [...m.reCommands, ...g.reGltfCommands, ...k.reMeshCommands]),
  },
  handlers: {
    channels: ['re:openTemplate', 're:sampleMotion', 're:motionScene', 're:openPose', 're:savePose', 're:exportPose', 're:lastFolder', 're:exportGlb', 're:importGltf', 're:modGamePath', 're:packMod', 're:findMesh', 're:openMesh'],
    load: () => Promise.all([import('./handlers'), import('./gltf-services'), import('./mesh-services')]).then(([m, g, k]) => ({ ...m.reHandlers, ...g.reGltfHandlers, ...k.reMeshHandlers })),
  },
})
