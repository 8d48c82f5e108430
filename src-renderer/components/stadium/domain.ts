/** Pokémon Stadium's renderer manifest: one model view for a model and its animations. */
import { defineAsyncComponent } from 'vue'
import { stadiumDomain } from '@shared/formats/stadium/domain'
import { defineRendererDomain } from '../../domain'

// one component object for a model and its animations (a clip picked in the tree keeps the view)
const model = defineAsyncComponent(() => import('./StadiumModelView.vue'))

export const stadiumRenderer = defineRendererDomain({
  shared: stadiumDomain,
  views: { 'stadium-model': model, 'stadium-animation': model },
  viewKey: (a) => (typeof a.locator.file === 'number' ? `stadium:${a.sourceId}:${a.locator.file}` : null),
  viewCalls: (a) => [{ channel: 'stadium:model', req: { id: a.id } }, { channel: 'scene:open', req: { id: a.id } }],
})
