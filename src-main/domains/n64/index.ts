/**
 * The N64 platform's node manifest: the ROM detector, which hands an image to the game domain
 * that claims it (`n64Games` of the Snap and Stadium manifests) and lists any other ROM by its
 * header. Its ROM reading (`rom-file.ts`) is shared by those games.
 */
import { n64Domain } from '../../../src-shared/formats/n64/domain'
import { defineNodeDomain } from '../../plugin/domain'
import { n64Detector } from './detector'

export const n64Node = defineNodeDomain({
  shared: n64Domain,
  fileDetectors: [n64Detector],
})
