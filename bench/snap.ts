/**
 * Snap figures: index time for a 16 MiB image (byte order, MD5, enumeration), time to open a
 * stage (parse + scene build) with ~40 rooms and ~20 000 triangles, display-list throughput, and
 * the app's first and second open of a stage scene (snap-open.ts).
 */
import type { Report } from './run'
import { buildSnapRom, defaultStage } from '../tests/fixtures/snap/build-rom'
import { n64Detector } from '../src-main/domains/n64/detector'
import { parseStage } from '../src-shared/formats/snap/stage'
import { buildStageScene } from '../src-shared/formats/snap/stage-scene'
import { buildModelDraws } from '../src-shared/formats/snap/room-model'
import { exportGlb } from '../src-shared/export/gltf'
import { runActors } from './snap-actors'
import { runSceneOpens } from './snap-open'

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now()
  const r = f()
  return [r, performance.now() - t0]
}

export async function run(report: Report): Promise<void> {
  const big = buildSnapRom({ romSize: 16 * 1024 * 1024, stages: { beach: defaultStage(44, 0, 15, 0), tunnel: defaultStage(8, 2, 8, 1) } })
  const mib = big.image.length / (1024 * 1024)
  // index: warm once, then measure the best of 3
  const input = { path: 'bench.z64', name: 'bench.z64', size: big.image.length, head: big.image.subarray(0, 65536) }
  await n64Detector.enumerate(big.image, input)
  let best = Infinity
  let assets = 0
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    const res = await n64Detector.enumerate(big.image, input)
    best = Math.min(best, performance.now() - t0)
    assets = res.assets.length
  }
  report('snap', `index ${mib.toFixed(0)} MiB image (MD5 + enumerate, ${assets} assets)`, best, 'ms')
  report('snap', 'index time per MiB', best / mib, 'ms/MiB')

  buildStageScene(parseStage(big.image, 'beach'))
  const [st, tParse] = time(() => parseStage(big.image, 'beach'))
  const [{ scene, stats }, tScene] = time(() => buildStageScene(st))
  report('snap', `open stage: parse (${st.pathRooms.length + st.nonPathRooms.length} rooms, ${st.track.length} track blocks)`, tParse, 'ms')
  report('snap', `open stage: scene build (${stats.triangles} triangles, ${stats.drawCalls} draw calls)`, tScene, 'ms')
  report('snap', 'open stage: parse + scene build', tParse + tScene, 'ms')
  const t0 = performance.now()
  const glb = await exportGlb(scene)
  report('snap', `export glb (${(glb.length / 1024).toFixed(0)} KiB)`, performance.now() - t0, 'ms')

  // display-list throughput: run every room's DLs (no scene building)
  let commands = 0
  const [, tDl] = time(() => {
    for (let k = 0; k < 5; k++) for (const r of st.pathRooms) commands += buildModelDraws(st.map, r.gfx!, 'room').commands
  })
  report('snap', 'F3DEX2 display-list commands per second', commands / (tDl / 1000), 'cmd/s', `${commands} commands`)
  await runActors(report)
  await runSceneOpens(report)
}
