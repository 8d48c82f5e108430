/**
 * The renderer manifest of GF sets: the texture grid for a set, a set file and a texture; the model
 * view for models and motions; a set inside the model archive (textures and model on `ARCHIVE#N`)
 * and the archive itself (Write mod…).
 */
import { defineAsyncComponent } from 'vue'
import { gfDomain } from '@shared/formats/gf/domain'
import { defineRendererDomain } from '../../domain'
import { gfSetPath } from './set-path'
import { modelRequest } from './model-view'

const grid = defineAsyncComponent(() => import('./TextureGrid.vue'))
// one component object for a set's models and motions (a motion picked in the tree keeps the view)
const model = defineAsyncComponent(() => import('./ModelView.vue'))
const garcSet = defineAsyncComponent(() => import('./GarcSetView.vue'))
const archive = defineAsyncComponent(() => import('./GarcArchiveView.vue'))

export const gfRenderer = defineRendererDomain({
  shared: gfDomain,
  views: { 'gf-set': grid, 'gf-file': grid, 'gf-texture': grid, 'gf-model': model, 'gf-motion': model, 'gf-garc-set': garcSet, 'gf-models': archive },
  viewKey: (a) => (a.kind === 'gf-model' || a.kind === 'gf-motion' ? `gf-model:${a.sourceId}` : null),
  // the model view's scene (without pending replacements: a view with some asks itself)
  viewCalls: (a, sources) => {
    const set = a.kind === 'gf-model' || a.kind === 'gf-motion' ? gfSetPath(a, null, sources) : null
    return set ? [{ channel: 'gf:model', req: modelRequest(set, a) }] : []
  },
})
