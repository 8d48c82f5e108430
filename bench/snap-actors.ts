/**
 * Snap actor figures (issue 12 item 8), per stage of the synthetic ROM: the stage open time
 * (parse + scene build) beside `snap actors` (find every actor, run its display lists, bake its
 * animations) and one actor export (scene + glb) — the largest actor of the stage.
 */
import type { Report } from './run'
import { buildSnapRom } from '../tests/fixtures/snap/build-rom'
import { STAGES } from '../src-shared/formats/snap/stages'
import { parseStage } from '../src-shared/formats/snap/stage'
import { buildStageScene } from '../src-shared/formats/snap/stage-scene'
import { findStageActors, loadActor } from '../src-shared/formats/snap/actors'
import { buildActorScene } from '../src-shared/formats/snap/actor-scene'
import { exportGlb } from '../src-shared/export/gltf'

function best<T>(n: number, f: () => T): [T, number] {
  let r = f()
  let t = Infinity
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    r = f()
    t = Math.min(t, performance.now() - t0)
  }
  return [r, t]
}

export async function runActors(report: Report): Promise<void> {
  const { image } = buildSnapRom()
  for (const info of STAGES) {
    const [st, tOpen] = best(3, () => {
      const s = parseStage(image, info)
      buildStageScene(s)
      return s
    })
    const [list, tList] = best(3, () => {
      const sa = findStageActors(st, image)
      return { sa, scenes: sa.actors.filter((a) => !a.error).map((a) => buildActorScene(loadActor(sa, a))) }
    })
    const pokemon = list.scenes.filter((s) => (s.scene.extras!.snap as { id: number }).id > 0)
    const pool = pokemon.length ? pokemon : list.scenes
    const biggest = pool.reduce((a, b) => (b.stats.triangles > a.stats.triangles ? b : a), pool[0]!)
    const actor = list.sa.actors.find((a) => a.name === (biggest.scene.extras!.snap as { name: string }).name)!
    let tExport = Infinity
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now()
      await exportGlb(buildActorScene(loadActor(list.sa, actor)).scene)
      tExport = Math.min(tExport, performance.now() - t0)
    }
    report('snap', `${info.name}: open stage (parse + scene)`, tOpen, 'ms')
    report('snap', `${info.name}: snap actors (${list.sa.actors.length} actors)`, tList, 'ms')
    report('snap', `${info.name}: export actor ${actor.name} (${biggest.stats.triangles} triangles, ${biggest.stats.animations.length} animations)`, tExport, 'ms')
  }
}
