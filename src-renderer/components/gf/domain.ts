/** The renderer manifest of GF sets: the texture grid for a set, a set file and a texture. */
import { defineAsyncComponent } from 'vue'
import { gfDomain } from '@shared/formats/gf/domain'
import { defineRendererDomain } from '../../domain'

const grid = defineAsyncComponent(() => import('./TextureGrid.vue'))

export const gfRenderer = defineRendererDomain({
  shared: gfDomain,
  views: { 'gf-set': grid, 'gf-file': grid, 'gf-texture': grid },
})
