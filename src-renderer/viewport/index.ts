/** The 3D viewport: neutral scene → Babylon.js. See viewport.ts for the imperative API. */
export { createViewport, createViewportOn, applyMaterial, defaultToggles, type Viewport, type ViewportOptions, type ViewportToggles, type PickInfo } from './viewport'
export { buildScene, dynamicNodes, commonAncestor, type BuiltScene, type BuiltMaterial, type BuildOptions, type MeshInfo } from './build'
export { AnimationPlayer, type PlayerState } from './player'
export { SkeletonOverlay, makeGrid, makeCurves, makeBoundsBox, niceStep } from './helpers'
export { useViewport, type UseViewportOptions, type ViewportHost } from './use-viewport'
