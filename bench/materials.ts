/**
 * Game-material figures (materials.md): the bundled samples indexed into a temporary catalog and
 * every Snap stage, Snap actor, Stadium model and GF model built as the app builds it; per stage
 * and per model the program materials and the distinct shaders they need (one per program key);
 * the time to generate all those shaders' GLSL; on the heaviest sample stage (most triangles), the
 * frame time with game materials beside the simple ones on Babylon's NullEngine (CPU side: the
 * player, uniform and texture updates, no GPU). GPU time in a browser: bench/materials-gpu.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { Logger } from '@babylonjs/core/Misc/logger.js'
import type { Report } from './run'
import '../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog } from '../src-main/catalog/catalog'
import { indexPaths } from '../src-main/indexer/indexer'
import { buildAssetScene } from '../src-main/services/scene-builders'
import { createViewportOn } from '../src-renderer/viewport/viewport'
import { programKey } from '../src-renderer/viewport/materials/program-material'
import { n64Fragment } from '../src-renderer/viewport/materials/n64-glsl'
import { picaFragment } from '../src-renderer/viewport/materials/pica-glsl'
import type { MaterialProgram } from '../src-shared/scene/material-program'
import type { Scene } from '../src-shared/scene/types'

const SAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'samples')
const KINDS = ['snap-stage', 'snap-actor', 'stadium-model', 'gf-model']

interface Built { kind: string; name: string; scene: Scene; programs: number; shaders: number; triangles: number }

function programsOf(scene: Scene): MaterialProgram[] {
  return scene.materials.flatMap((m) => (m.program ? [m.program] : []))
}

function triangles(scene: Scene): number {
  return scene.meshes.reduce((n, m) => n + m.primitives.reduce((k, p) => k + (p.mode === 'lines' ? 0 : p.indices.length / 3), 0), 0)
}

/** Every stage and model of the bundled samples, built as `scene:open` builds them. */
async function sampleScenes(): Promise<Built[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mb-bench-materials-'))
  const catalog = openCatalog(path.join(dir, 'catalog.sqlite'))
  try {
    await indexPaths(catalog, [SAMPLES])
    const out: Built[] = []
    for (const kind of KINDS) {
      for (const a of catalog.list({ kind })) {
        const { scene } = await buildAssetScene(catalog, a.id)
        const progs = programsOf(scene)
        out.push({ kind, name: a.name, scene, programs: progs.length, shaders: new Set(progs.map(programKey)).size, triangles: triangles(scene) })
      }
    }
    return out
  } finally {
    catalog.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Mean ms per frame over `frames` steps of 1/30 s (the stage's material animation playing). */
function frameTime(step: (dt: number) => void, frames: number): number {
  step(1 / 30)
  const t = performance.now()
  for (let i = 0; i < frames; i++) step(1 / 30)
  return (performance.now() - t) / frames
}

export async function run(report: Report): Promise<void> {
  Logger.LogLevels = Logger.ErrorLogLevel
  const built = await sampleScenes()
  for (const b of built.filter((x) => x.kind === 'snap-stage')) {
    report('materials', `shaders: Snap stage ${b.name}`, b.shaders, 'shaders', `${b.programs} program materials of ${b.scene.materials.length}, ${b.triangles} triangles`)
  }
  for (const kind of KINDS.filter((k) => k !== 'snap-stage')) {
    const ms = built.filter((x) => x.kind === kind)
    if (!ms.length) continue
    const max = ms.reduce((a, b) => (b.shaders > a.shaders ? b : a))
    const mean = ms.reduce((n, m) => n + m.shaders, 0) / ms.length
    report('materials', `shaders per model: ${kind} (${ms.length} models, mean)`, mean, 'shaders', `most: ${max.name} ${max.shaders} (${max.programs} program materials)`)
  }

  // GLSL generation for every distinct program of the samples.
  const distinct = new Map<string, MaterialProgram>()
  for (const b of built) for (const p of programsOf(b.scene)) distinct.set(programKey(p), p)
  const glsl = () => {
    for (const p of distinct.values()) void (p.kind === 'n64' ? n64Fragment(p.n64) : picaFragment(p.pica))
  }
  glsl() // warm
  const t = performance.now()
  for (let r = 0; r < 20; r++) glsl()
  report('materials', `generate GLSL per distinct sample program (${distinct.size} programs)`, ((performance.now() - t) / 20 / Math.max(1, distinct.size)) * 1000, 'µs')

  const stages = built.filter((x) => x.kind === 'snap-stage')
  if (!stages.length) return
  const heavy = stages.reduce((a, b) => (b.triangles > a.triangles ? b : a))
  const engine = new NullEngine()
  const vp = createViewportOn(engine)
  try {
    vp.setScene(heavy.scene, { mergeStatic: false }) // as the stage view shows it
    vp.player?.setLoop(true)
    vp.player?.play()
    // Alternating runs, best of each (the first run also warms the JIT).
    let game = Infinity
    let simple = Infinity
    for (let r = 0; r < 3; r++) {
      vp.setToggle('gameMaterials', true)
      game = Math.min(game, frameTime(vp.step, 120))
      vp.setToggle('gameMaterials', false)
      simple = Math.min(simple, frameTime(vp.step, 120))
    }
    const note = `${heavy.triangles} triangles, ${vp.built!.stats.drawMeshes} meshes, NullEngine: CPU side only`
    report('materials', `frame, heaviest sample stage ${heavy.name}: game materials`, game, 'ms', note)
    report('materials', `frame, heaviest sample stage ${heavy.name}: simple materials`, simple, 'ms', note)
  } finally {
    vp.dispose()
    engine.dispose()
  }
}
