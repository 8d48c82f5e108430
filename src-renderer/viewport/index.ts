/** The 3D viewport: neutral scene → Babylon.js. See viewport.ts for the imperative API. */
export { createViewport, createViewportOn, applyMaterial, defaultToggles, type Viewport, type ViewportOptions, type ViewportToggles, type PickInfo, type CameraMode, type CameraView } from './viewport'
export { buildScene, dynamicNodes, commonAncestor, type BuiltScene, type BuiltMaterial, type BuildOptions, type MeshInfo } from './build'
export { AnimationPlayer, type PlayerState } from './player'
export { SkeletonOverlay, makeGrid, makeCurves, makeBoundsBox, niceStep } from './helpers'
export { useViewport, onViewport, type UseViewportOptions, type ViewportHost } from './use-viewport'
export { countStats, builtStats, poseBounds, markerNodes, type SceneStats } from './explore'
export * from './fly'
export { FlyController } from './fly-controller'
