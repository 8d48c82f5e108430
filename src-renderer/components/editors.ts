import { defineAsyncComponent, type Component } from 'vue'

/**
 * Which editor the centre pane shows for a selected asset kind. Domains add their editors here;
 * kinds not listed fall back to the 3D viewport of the asset's neutral scene (if it has one) or
 * to the inspector alone. Editors receive the props `{ asset: AssetRow }`.
 */
export const editorsByKind: Record<string, Component> = {
  'gf-set': defineAsyncComponent(() => import('./gf/TextureGrid.vue')),
  'gf-file': defineAsyncComponent(() => import('./gf/TextureGrid.vue')),
  'gf-texture': defineAsyncComponent(() => import('./gf/TextureGrid.vue')),
  // one component object for a set's models and motions (a motion picked in the tree keeps the view)
  ...((model) => ({ 'gf-model': model, 'gf-motion': model }))(defineAsyncComponent(() => import('./gf/ModelView.vue'))),
  ...Object.fromEntries(['re-motlist', 're-mot', 're-motion', 'emv-pose', 'emv-pose-entry'].map((k) => [k, defineAsyncComponent(() => import('./re/PoseEditor.vue'))])),
  // one component object for a model and its animations (a clip picked in the tree keeps the view)
  ...((model) => ({ 'stadium-model': model, 'stadium-animation': model }))(defineAsyncComponent(() => import('./stadium/StadiumModelView.vue'))),
  // one component object for all Snap kinds, so moving between a stage's rooms keeps the view
  ...((stage) => Object.fromEntries(['snap-stage', 'snap-room', 'snap-track', 'snap-room-group', 'snap-skybox'].map((k) => [k, stage])))(defineAsyncComponent(() => import('./snap/StageView.vue'))),
}

export const _keep = defineAsyncComponent
