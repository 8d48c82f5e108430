/**
 * RE glTF round trip figures (issue 13): a synthetic motlist of 100 motions × 150 bones × 300
 * frames (one key per frame, every RE4R codec, rotation on every bone, translation on some),
 * timed for the read of the file (the floor: every key decoded once), `re export` (scene
 * building + glb writing) and `re import` of all 100 animations (glb reading + sampler
 * evaluation + codec choice + motlist writing). Each step runs once (seconds, not micro-timings).
 */
import type { Report } from './run'
import { readMotionFile, motionFileScene, importAnimation, writeMot, writeMotlist } from '../src-shared/formats/re'
import { exportGlb } from '../src-shared/export/gltf'
import { readGltfAnimations } from '../src-shared/export/gltf-read'
import { fixtureClips } from '../tests/fixtures/re/template'
import { largeSkeleton } from '../tests/fixtures/re/skeleton'

const MOTIONS = 100
const BONES = 150
const FRAMES = 300

export function once<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now()
  const value = fn()
  return { ms: performance.now() - t0, value }
}

async function onceAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now()
  const value = await fn()
  return { ms: performance.now() - t0, value }
}

export function bigMotlist(): Uint8Array {
  const skeleton = largeSkeleton(BONES)
  const mots = Array.from({ length: MOTIONS }, (_, i) =>
    writeMot({ version: 613, name: `bench_${i}`, frameCount: FRAMES, blending: 0, frameRate: 60, bones: i === 0 ? skeleton : null, clips: fixtureClips(613, { skeleton, frames: FRAMES, keyStep: 1, phase: i }), motSize: i === 0 ? 'owner' : 'end' }),
  )
  return writeMotlist({ version: 663, name: 'bench', mots, entries: mots.map((_, i) => ({ mot: i, motNumber: i + 1, type: 1 })) })
}

export async function run(report: Report): Promise<void> {
  const bytes = bigMotlist()
  const note = `${MOTIONS} motions × ${BONES} bones × ${FRAMES} frames`
  report('re-gltf', 'motlist size', bytes.byteLength / 2 ** 20, 'MiB', note)
  const read = once(() => readMotionFile(bytes))
  report('re-gltf', 'read the motlist (floor)', read.ms, 'ms', note)
  const scene = once(() => motionFileScene(read.value))
  const glb = await onceAsync(() => exportGlb(scene.value.scene, { skipValidation: true }))
  report('re-gltf', 're export: build the scene', scene.ms, 'ms')
  report('re-gltf', 're export: write the glb', glb.ms, 'ms', `${(glb.value.byteLength / 2 ** 20).toFixed(1)} MiB`)
  report('re-gltf', 're export total (read + scene + glb)', read.ms + scene.ms + glb.ms, 'ms', `${((read.ms + scene.ms + glb.ms) / read.ms).toFixed(1)}× the read`)
  const g = await onceAsync(() => readGltfAnimations(glb.value))
  report('re-gltf', 're import: read the glb', g.ms, 'ms')
  const imp = once(() => g.value.animations.map((a) => importAnimation(read.value, g.value, { animation: a.name }).bytes.byteLength))
  report('re-gltf', `re import: ${MOTIONS} animations → motlists`, imp.ms, 'ms', `${(imp.value.reduce((s, n) => s + n, 0) / 2 ** 20).toFixed(1)} MiB written`)
  report('re-gltf', 're import total (glb read + all animations)', g.ms + imp.ms, 'ms', `${((g.ms + imp.ms) / read.ms).toFixed(1)}× the read`)
}
