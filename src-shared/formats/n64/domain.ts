/**
 * The N64 platform's shared manifest: an N64 ROM no game domain claims (Snap and Stadium claim
 * theirs through the N64 detector; see src-main/domains/n64/).
 */
import { defineDomain } from '../../domain'

const HINT = 'An N64 ROM Modbench does not know; its header facts are in the Inspector.'

export const n64Domain = defineDomain({
  id: 'n64',
  title: 'N64 ROMs',
  sourceKinds: {
    'n64-rom': { label: 'N64 ROM', icon: '◆', hint: HINT },
  },
  assetKinds: {
    'n64-rom': { label: 'N64 ROM', icon: '◆', hint: HINT },
  },
})
