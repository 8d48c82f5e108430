/**
 * RE motion figures: parse time of a ~400 KB motlist (synthetic: 60 bones, every codec, one key
 * per frame), and the time to build a 60-bone pose motlist (§8). Also the public RE2 sample
 * (spec §9.1) when a local mirror of its repository exists.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Report } from './run'
import { readMotionFile, motionsOf, sampleMot, buildPoseMotlistFromEmv, type EmvPose, type Vec3 } from '../src-shared/formats/re'
import { buildTemplateMotlist } from '../tests/fixtures/re/template'
import { largeSkeleton } from '../tests/fixtures/re/skeleton'

function time(fn: () => void, minMs = 300): number {
  fn() // warm-up
  let n = 0
  const t0 = performance.now()
  while (performance.now() - t0 < minMs) {
    fn()
    n++
  }
  return (performance.now() - t0) / n
}

export async function run(report: Report): Promise<void> {
  await runRe(report)
  await (await import('./re-gltf')).run(report)
  await (await import('./re-mesh')).run(report)
}

async function runRe(report: Report): Promise<void> {
  const skeleton = largeSkeleton(60)
  const big = buildTemplateMotlist({ skeleton, frames: 360, keyStep: 1 })
  report('re', 'synthetic motlist size', big.byteLength / 1024, 'KiB', '60 bones, 361 keys/track, mixed codecs')
  report('re', 'parse synthetic motlist', time(() => readMotionFile(big)), 'ms')
  const f = readMotionFile(big)
  const m = motionsOf(f)[0]!
  report('re', 'sample all bones at one frame', time(() => sampleMot(m.mot!, m.skeleton, 333.5)) * 1000, 'µs')

  const pose: EmvPose = { name: 'Bench', joints: skeleton.map((b, i) => ({ name: b.name, euler: [0.01 * i, -0.02 * i, 0.03] as Vec3 })) }
  const template = readMotionFile(buildTemplateMotlist({ skeleton, codecs: 'simple' }))
  report('re', 'build 60-bone pose motlist', time(() => buildPoseMotlistFromEmv(template, pose)), 'ms')

  const mirror = process.env.RE2_CAF_MIRROR ?? '/work/.mirror/godlock2000-eng+ResidentEvil2_CustomAnimationFramework_NonRTX/repo'
  if (existsSync(mirror)) {
    const bytes = new Uint8Array(execFileSync('git', ['-C', mirror, 'show', 'HEAD:framework/natives/x64/CAF_custom/dodge_front.motlist.85'], { maxBuffer: 4 << 20 }))
    report('re', 'parse RE2 dodge_front.motlist.85 (public sample)', time(() => readMotionFile(bytes)), 'ms', `${(bytes.byteLength / 1024).toFixed(0)} KiB`)
  }
}
