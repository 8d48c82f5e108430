/**
 * Pokémon Stadium (N64, US 1.0) battle models (pokemon-stadium.md). Entry points:
 * `openStadiumRom` → `loadModel(rom, file)` → `buildStadiumScene(model)`; `summarizeModel`,
 * `buildManifest`, `buildMovesJson` for the export's JSON files.
 */
export { openStadiumRom, loadModel, type StadiumRom, type StadiumModel, type LoadOptions } from './model'
export { buildStadiumScene, type StadiumSceneOptions } from './scene'
export { summarizeModel, buildManifest, buildMovesJson, type ModelSummary } from './manifest'
export { readModelArchive, MODEL_ARCHIVE_ROM, fragmentSlotBase } from './archive'
export { unwrapFile } from './pers-szp'
export { poseMatrices, levelLocals, jointBasis, jointQuat, zxyBasis, zxyQuat } from './joint-math'
export { sampleJoint, nextFrame, playbackFrames } from './skeletal-anim'
export { sampleTextureAnimation } from './texture-anim'
export { readBattleTable, labelAnimations, CONTEXT_SLOTS } from './battle-table'
export { speciesName, moveName, modelSlug, modelDisplayName, SPECIES, MOVES } from './names'
