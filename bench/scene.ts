/**
 * Scene figures: building a 100 000-triangle, 100-bone scene (plus 200 static boxes over 8
 * materials) in the viewport on Babylon's NullEngine, frame time of its animation, glb export time
 * and size, validation time.
 */
import { performance } from 'node:perf_hooks'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { Logger } from '@babylonjs/core/Misc/logger.js'
import { createViewportOn } from '../src-renderer/viewport/viewport'
import { exportGlb } from '../src-shared/export/gltf'
import { validateScene } from '../src-shared/scene/validate'
import { sampleWorldMatrices } from '../src-shared/scene/sample'
import { demoScene } from '../src-shared/scene/demo'
import { syntheticScene } from '../tests/fixtures/scene/synthetic'
import type { Report } from './run'

function best(n: number, f: () => void): number {
  let min = Infinity
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    f()
    min = Math.min(min, performance.now() - t)
  }
  return min
}

export async function run(report: Report): Promise<void> {
  Logger.LogLevels = Logger.ErrorLogLevel
  const scene = syntheticScene({ triangles: 100_000, bones: 100, sides: 50, statics: 200, materials: 8, keys: 30 })
  const tris = scene.meshes.reduce((n, m) => n + m.primitives.reduce((k, p) => k + p.indices.length / 3, 0), 0)
  const note = `${tris} triangles, ${scene.skins[0].joints.length} bones, ${scene.nodes.length} nodes`

  report('scene', 'validateScene (100k tris, 100 bones)', best(3, () => validateScene(scene)), 'ms', note)
  report('scene', 'sample world matrices of 100 bones at one time', best(20, () => sampleWorldMatrices(scene, scene.animations[0], 0.7)) * 1000, 'µs')

  const engine = new NullEngine()
  const vp = createViewportOn(engine)
  try {
    const build = best(3, () => vp.setScene(scene))
    report('scene', 'viewport build (NullEngine), 100k tris + 100 bones', build, 'ms', `${vp.built!.stats.drawMeshes} meshes after merging ${vp.built!.stats.staticMerged} static primitives`)
    vp.player!.play()
    vp.step(0)
    const frames = 60
    const t = performance.now()
    for (let i = 0; i < frames; i++) vp.step(1 / 60)
    report('scene', 'animated frame on NullEngine (pose 100 bones + render)', (performance.now() - t) / frames, 'ms', 'CPU side only: no GPU')
  } finally {
    vp.dispose()
    engine.dispose()
  }

  let glb: Uint8Array = new Uint8Array()
  let min = Infinity
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    glb = await exportGlb(scene)
    min = Math.min(min, performance.now() - t)
  }
  report('scene', 'glb export (100k tris, 100 bones, 2 clips)', min, 'ms')
  report('scene', 'glb size', glb.byteLength / (1024 * 1024), 'MiB', `${glb.byteLength} bytes`)
  const { validateBytes } = await import('gltf-validator')
  const t = performance.now()
  const r = await validateBytes(glb)
  report('scene', 'Khronos validator on that glb', performance.now() - t, 'ms', `${r.issues.numErrors} errors, ${r.issues.numWarnings} warnings`)

  const demo = await exportGlb(demoScene())
  report('scene', 'demo scene glb size', demo.byteLength / 1024, 'KiB')
}
