/** The renderer manifest of RE Engine motions and EMV poses: the pose editor for each. */
import { defineAsyncComponent } from 'vue'
import { reDomain } from '@shared/formats/re/domain'
import { defineRendererDomain } from '../../domain'

const editor = defineAsyncComponent(() => import('./PoseEditor.vue'))

export const reRenderer = defineRendererDomain({
  shared: reDomain,
  views: { 're-motlist': editor, 're-mot': editor, 're-motion': editor, 'emv-pose': editor, 'emv-pose-entry': editor },
})
