/** The neutral scene model: types, validation, math, the scene assembler, animation sampling and the demo scene. */
export type * from './types'
export { emptyScene } from './types'
export { validateScene, sceneProblems, SceneError, type SceneProblem } from './validate'
export * from './math'
export * from './sample'
export { SceneAssembler, PrimitiveBuilder, buildPrimitives, identityMatrices, type AssemblerOptions } from './assemble'
export { demoScene } from './demo'
export { sceneBounds, boundsCenter, boundsRadius, type Bounds } from './bounds'
