/** Pokémon Snap's renderer manifest: one stage view for a stage and everything in it. */
import { defineAsyncComponent } from 'vue'
import { snapDomain } from '@shared/formats/snap/domain'
import { defineRendererDomain } from '../../domain'

// one component object for all Snap editor kinds, so moving between a stage's rooms keeps the view
const stage = defineAsyncComponent(() => import('./StageView.vue'))

export const snapRenderer = defineRendererDomain({
  shared: snapDomain,
  views: { 'snap-stage': stage, 'snap-room': stage, 'snap-track': stage, 'snap-room-group': stage, 'snap-skybox': stage },
  viewKey: (a) => (typeof a.locator.stage === 'string' ? `snap:${a.sourceId}:${a.locator.stage}` : null),
})
