/**
 * The GLSL shaders of Babylon's own materials that every view draws with, bundled with the
 * viewport: the grid, bounds and skeleton lines (LinesMesh's `color` shader) and the standard
 * material (`default`). Babylon otherwise imports them on first use, after the scene is built,
 * one more round trip to the server before the first frame (issue 26).
 * Side effects only: each registers its shader text in Babylon's ShaderStore.
 */
import '@babylonjs/core/Shaders/color.vertex.js'
import '@babylonjs/core/Shaders/color.fragment.js'
import '@babylonjs/core/Shaders/default.vertex.js'
import '@babylonjs/core/Shaders/default.fragment.js'
