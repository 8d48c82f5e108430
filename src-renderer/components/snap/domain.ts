/** Pokémon Snap's renderer manifest: one stage view for a stage and everything in it; an actor view per actor. */
import { defineAsyncComponent } from 'vue'
import { snapDomain } from '@shared/formats/snap/domain'
import { defineRendererDomain } from '../../domain'
import { stageSceneId } from './scene-id'

// one component object for all Snap editor kinds, so moving between a stage's rooms keeps the view
const stage = defineAsyncComponent(() => import('./StageView.vue'))
// an actor and its HD photo model entry share one actor view (the HD toggle switches in place)
const actor = defineAsyncComponent(() => import('./ActorView.vue'))

export const snapRenderer = defineRendererDomain({
  shared: snapDomain,
  views: { 'snap-stage': stage, 'snap-room': stage, 'snap-track': stage, 'snap-room-group': stage, 'snap-skybox': stage, 'snap-actor': actor },
  viewKey: (a) => {
    if (typeof a.locator.stage !== 'string') return null
    return a.kind === 'snap-actor' ? `snap-actor:${a.sourceId}:${a.locator.stage}:${String(a.locator.actor)}` : `snap:${a.sourceId}:${a.locator.stage}`
  },
  // an actor shows its own entry's scene (its HD entry is an entry of its own)
  viewCalls: (a) => [{ channel: 'scene:open', req: { id: a.kind === 'snap-actor' ? a.id : stageSceneId(a) } }],
})
