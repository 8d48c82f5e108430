/**
 * Readies the scene-view host's first canvas while the shell is idle (issue 26), so the first view
 * opened by a click starts drawing at once: the canvas's WebGL engine (context creation and its
 * synchronous queries, 35–60 ms on SwiftShader) and the programs every view draws with whatever
 * its scene holds — the grid and the bounds box (Babylon's `color` shader, with and without vertex
 * colours). The view takes this canvas
 * from the pool (canvas-pool.ts) and finds its engine (viewport.ts keeps one per canvas) with
 * those programs in its effect cache. Only when no host has had a canvas yet; best effort (no
 * WebGL: the view reports it when it opens).
 */
import { emptyScene, type Scene } from '@shared/scene/types'
import { canvasesMade, giveCanvas, takeCanvas } from './canvas-pool'
import { createViewport } from './viewport'

/** One triangle: enough for the grid and the bounds box of a real scene. */
function triangle(): Scene {
  const s = emptyScene('viewport/warm')
  s.materials.push({ name: 'warm', baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided: false })
  s.meshes.push({ name: 'warm', primitives: [{ positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]), material: 0 }] })
  s.nodes.push({ name: 'warm', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: 0 })
  return s
}

/**
 * In one task, so no view can take the canvas meanwhile: the engine, a viewport showing a triangle
 * (its setScene starts every program), then the viewport let go (the engine and its effects stay).
 */
export function warmViewport(): void {
  if (canvasesMade() > 0) return
  const canvas = takeCanvas()
  try {
    const vp = createViewport(canvas)
    vp.setScene(triangle())
    vp.dispose()
  } catch {
    // no WebGL here: the view that opens says so
  } finally {
    giveCanvas(canvas)
  }
}
