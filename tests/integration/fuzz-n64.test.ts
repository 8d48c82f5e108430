/**
 * Robustness of the shared N64 readers: `openRom` (mutated and truncated headers in all three
 * byte orders), Yay0 (mutated streams of our own encoder's output), the F3DEX2 interpreter
 * (random display lists built from the opcode vocabulary, with calls, branches, loads and
 * triangles pointing anywhere) and the texture decoders (random formats, sizes, pitches,
 * palettes). Each call either returns or throws FormatError.
 */
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import * as path from 'node:path'
import { gunzipSync } from 'fflate'
import { Rng, SEED, Tally, cases, expectReaderOk, mutate, type Field } from '../helpers/fuzz'
import { repoRoot } from '../helpers/cli'
import { normaliseRom, openRom } from '../../src-shared/formats/n64/rom'
import { decodeYay0, encodeYay0, readYay0Header } from '../../src-shared/formats/n64/yay0'
import { F3dex2, decodeTextureRef } from '../../src-shared/formats/n64/f3dex2'
import { decodePalette, decodeTexture, type TlutType } from '../../src-shared/formats/n64/texture'
import { ChunkMemory } from '../fixtures/n64/memory'

const swap = (b: Uint8Array, order: 'v64' | 'n64'): Uint8Array => {
  const out = b.slice()
  const w = order === 'v64' ? 2 : 4
  for (let i = 0; i + w <= b.length; i += w) for (let k = 0; k < w; k++) out[i + k] = b[i + w - 1 - k]!
  return out
}

describe('openRom on mutated headers', () => {
  it('returns or throws FormatError', () => {
    const head = gunzipSync(readFileSync(path.join(repoRoot, 'resources', 'samples', 'snap-sample.z64.gz'))).slice(0, 0x2000)
    const fields: Field[] = []
    for (let o = 0; o < 0x40; o += 4) fields.push({ off: o, size: 4 }, { off: o, size: 1 })
    const rng = new Rng(0x64000001 + SEED)
    const tally = new Tally()
    const n = cases(600)
    for (let i = 0; i < n; i++) {
      const m = mutate(head, fields, rng)
      let bytes = m.bytes
      const order = rng.pick(['z64', 'v64', 'n64'] as const)
      if (order !== 'z64') bytes = swap(bytes, order)
      if (rng.int(4) === 0) bytes = bytes.slice(0, rng.int(0x48)) // odd and sub-header lengths
      tally.add(expectReaderOk(`openRom case ${i} (${order}): ${m.label}`, () => {
        const rom = openRom(bytes, `case-${i}.z64`)
        expect(rom.image.length).toBe(bytes.length)
        normaliseRom(bytes, `case-${i}.z64`)
      }, `case-${i}.z64`))
    }
    tally.expectShares('n64 openRom', { ok: 0.3, error: 0.15 }) // seed 0: 63 % ok, 37 % errors
  })
})

describe('Yay0 on mutated streams', () => {
  it('returns (at most outSize bytes) or throws FormatError', () => {
    const rng = new Rng(0x64000002 + SEED)
    const tally = new Tally()
    const n = cases(2000)
    for (let i = 0; i < n; i++) {
      // compressible input: runs, repeats and noise
      const len = 1 + rng.int(4000)
      const data = new Uint8Array(len)
      for (let k = 0; k < len; k++) data[k] = rng.int(3) === 0 ? rng.int(256) : k > 20 && rng.int(2) ? data[k - 1 - rng.int(20)]! : 0x41
      const enc = encodeYay0(data)
      const fields: Field[] = [{ off: 4, size: 4 }, { off: 8, size: 4 }, { off: 12, size: 4 }]
      for (let k = 0; k < 24; k++) fields.push({ off: 16 + rng.int(Math.max(1, enc.length - 16)), size: rng.pick([1, 2, 4]) })
      const m = mutate(enc, fields, rng)
      tally.add(expectReaderOk(`yay0 case ${i}: ${m.label}`, () => {
        const h = readYay0Header(m.bytes, { file: 'case.yay0' })
        const out = decodeYay0(m.bytes, { file: 'case.yay0' })
        expect(out.length).toBe(h.outSize)
      }, 'case.yay0'))
    }
    tally.expectShares('n64 yay0', { ok: 0.3, error: 0.15 }) // seed 0: 61 % ok, 39 % errors
  })
})

const DL = 0x80100000
const AREAS = [0x80100000, 0x80200000, 0x80300000, 0x06000000, 0x04000100, 0x80000000, 0xfffffff8, 0]

function randomCommand(rng: Rng): [number, number] {
  const addr = () => (rng.int(3) === 0 ? rng.int(0x100000000) : (rng.pick(AREAS) + rng.int(0x400) * 8) >>> 0)
  const op = rng.pick([0x01, 0x02, 0x05, 0x06, 0x07, 0xd7, 0xd9, 0xda, 0xdb, 0xdc, 0xde, 0xdf, 0xe1, 0x04, 0xe2, 0xe3, 0xf0, 0xf2, 0xf3, 0xf4, 0xf5, 0xfa, 0xfb, 0xfc, 0xfd, 0xe7, 0xe6, 0xe8, 0x00, rng.int(256)])
  const w0lo = rng.int(0x1000000)
  switch (op) {
    case 0x01: return [((0x01 << 24) | ((rng.int(40) << 12) | (rng.int(80) << 1))) >>> 0, addr()]
    case 0xde: return [((0xde << 24) | (rng.int(2) << 16)) >>> 0, addr()]
    case 0xdb: return [((0xdb << 24) | (rng.pick([0x06, 0x02, 0x0a, 0x0e]) << 16) | (rng.int(16) * 4)) >>> 0, rng.int(2) ? addr() : rng.int(0x100000000)]
    case 0xe1: return [(0xe1 << 24) >>> 0, addr()]
    case 0xfd: return [((0xfd << 24) | (rng.int(8) << 21) | (rng.int(4) << 19) | rng.int(0x1000)) >>> 0, addr()]
    default: return [((op << 24) | w0lo) >>> 0, rng.int(0x100000000)]
  }
}

/**
 * A well-formed textured list (texture image, tiles, LOADBLOCK or LOADTILE, palette, vertices,
 * triangles) with random formats and sizes, then a few of its words damaged, so cases reach the
 * draw calls and the texture decode instead of failing on the first command.
 */
function texturedList(rng: Rng): { words: [number, number][]; label: string } {
  const fmt = rng.pick([0, 2, 3, 4, rng.int(8)])
  const siz = rng.pick([0, 1, 2, 3])
  const w = rng.pick([4, 8, 16, 32, 64, 1 + rng.int(128)])
  const h = rng.pick([4, 8, 16, 32, 1 + rng.int(128)])
  const line = rng.int(16)
  const tile = rng.int(8)
  const texels = Math.max(1, Math.min(2047, w * h - 1 + rng.pick([0, 0, 1, -1, 100])))
  const words: [number, number][] = [
    [(0xfd000000 | (fmt << 21) | (siz << 19) | (rng.int(2) ? 0 : w - 1)) >>> 0, 0x80200000 + rng.int(0x200) * 8],
    [(0xf5000000 | (fmt << 21) | (siz << 19) | (line << 9) | rng.int(0x200)) >>> 0, 0x07000000 | rng.int(0x1000000)],
    rng.int(2)
      ? [0xf3000000, ((7 << 24) | (texels << 12) | rng.int(0x1000)) >>> 0]
      : [(0xf4000000 | rng.int(0x1000000)) >>> 0, ((7 << 24) | ((w - 1) << 14) | ((h - 1) << 2)) >>> 0],
    [(0xf5000000 | (fmt << 21) | (siz << 19) | (line << 9)) >>> 0, ((tile << 24) | rng.int(0x1000000)) >>> 0],
    [0xf2000000, ((tile << 24) | ((w - 1) << 14) | ((h - 1) << 2)) >>> 0],
  ]
  if (fmt === 2 || rng.int(3) === 0) {
    words.push([(0xfd100000 | rng.int(0x1000)) >>> 0, 0x80300000 + rng.int(0x100) * 8])
    words.push([(0xf5000100 | rng.int(0x100)) >>> 0, 0x07000000])
    words.push([0xf0000000, ((7 << 24) | (rng.pick([15, 255, rng.int(1024)]) << 14)) >>> 0])
    words.push([(0xe3000000 | (14 << 8) | 1) >>> 0, rng.pick([0x8000, 0xc000, 0])]) // SETOTHERMODE_H TEXTLUT
  }
  words.push([(0xd7000002 | (tile << 8)) >>> 0, rng.pick([0xffffffff, 0x80008000, rng.int(0x100000000)])])
  words.push([0xfc000000 | rng.int(0x1000000), rng.int(0x100000000)]) // combine
  const n = 3 + rng.int(30)
  words.push([(0x01000000 | (n << 12) | (n * 2)) >>> 0, 0x80200000 + rng.int(0x100) * 16])
  for (let t = 0; t < 1 + rng.int(20); t++) {
    const i = () => rng.int(n) * 2
    words.push(rng.int(2) ? [(0x05000000 | (i() << 16) | (i() << 8) | i()) >>> 0, 0] : [(0x06000000 | (i() << 16) | (i() << 8) | i()) >>> 0, ((i() << 16) | (i() << 8) | i()) >>> 0])
  }
  const damage = rng.int(3)
  for (let k = 0; k < damage; k++) {
    const at = rng.int(words.length)
    const which = rng.int(2)
    words[at]![which] = rng.int(2) ? (words[at]![which]! ^ (1 << rng.int(32))) >>> 0 : rng.int(0x100000000)
  }
  return { words, label: `fmt ${fmt} siz ${siz} ${w}×${h} line ${line}, ${damage} damaged` }
}

describe('F3DEX2 interpreter on well-formed textured lists with damage', () => {
  it('returns or throws FormatError; its draw-call textures decode or throw FormatError', () => {
    const rng = new Rng(0x64000005 + SEED)
    const tally = new Tally()
    let textures = 0
    const n = cases(2000)
    for (let i = 0; i < n; i++) {
      const mem = new ChunkMemory()
      for (const a of [0x80200000, 0x80300000]) {
        const chunk = new Uint8Array(0x4000)
        for (let k = 0; k < chunk.length; k++) chunk[k] = rng.int(256)
        mem.add(a, chunk)
      }
      const { words, label } = texturedList(rng)
      const list = new Uint8Array(words.length * 8 + 8)
      const dv = new DataView(list.buffer)
      words.forEach(([w0, w1], k) => (dv.setUint32(k * 8, w0), dv.setUint32(k * 8 + 4, w1)))
      dv.setUint32(words.length * 8, 0xdf000000)
      mem.chunks.unshift({ base: DL, bytes: list })
      const interp = new F3dex2({ maxCommands: 20000, halfTexel: rng.int(2) === 1 })
      tally.add(expectReaderOk(`textured case ${i}: ${label}`, () => {
        interp.run(DL, mem)
        for (const call of interp.takeDrawCalls()) {
          for (const idx of call.indices) expect(call.vertices[idx]).toBeDefined()
          for (const t of call.state.textures) {
            if (!t) continue
            textures++
            expectReaderOk(`textured case ${i}: ${label}: texture decode`, () => {
              const rgba = decodeTextureRef(t, mem)
              expect(rgba.length).toBe(t.width * t.height * 4)
            })
          }
        }
      }))
    }
    // seed 0: 95 % ok, 5 % errors (most edits hit texels and colours, which any value decodes)
    tally.expectShares('n64 textured', { ok: 0.45, error: 0.02 })
    expect(textures).toBeGreaterThan(n / 10)
  })
})

describe('F3DEX2 interpreter on random display lists', () => {
  it('returns or throws FormatError (incl. LimitError); draw-call textures decode or throw FormatError', () => {
    const rng = new Rng(0x64000003 + SEED)
    const tally = new Tally()
    const n = cases(2000)
    for (let i = 0; i < n; i++) {
      const mem = new ChunkMemory()
      for (const a of [0x80100000, 0x80200000, 0x80300000]) {
        const chunk = new Uint8Array(0x2000 + rng.int(0x2000))
        for (let k = 0; k < chunk.length; k++) chunk[k] = rng.int(4) ? rng.int(256) : 0
        mem.add(a, chunk)
      }
      const cmds = 1 + rng.int(200)
      const list = new Uint8Array(cmds * 8 + 8)
      const dv = new DataView(list.buffer)
      for (let k = 0; k < cmds; k++) {
        const [w0, w1] = randomCommand(rng)
        dv.setUint32(k * 8, w0)
        dv.setUint32(k * 8 + 4, w1)
      }
      dv.setUint32(cmds * 8, 0xdf000000)
      mem.chunks.unshift({ base: DL, bytes: list })
      const interp = new F3dex2({ maxCommands: 20000, vertexSlots: rng.pick([32, 64]), halfTexel: rng.int(2) === 1 })
      tally.add(expectReaderOk(`f3dex2 case ${i}`, () => {
        if (rng.int(2)) interp.segments[6] = 0x80200000
        interp.run(DL, mem)
        for (const call of interp.takeDrawCalls()) {
          for (const idx of call.indices) expect(call.vertices[idx]).toBeDefined()
          for (const t of call.state.textures) if (t) expectReaderOk(`f3dex2 case ${i} texture`, () => decodeTextureRef(t, mem))
        }
      }))
    }
    tally.expectShares('n64 f3dex2', { ok: 0.1, error: 0.35 }) // seed 0: 28 % ok, 72 % errors
  })
})

describe('N64 texture decoders on random input', () => {
  it('decodeTexture and decodePalette return RGBA8 of the right size or throw FormatError', () => {
    const rng = new Rng(0x64000004 + SEED)
    const tally = new Tally()
    const n = cases(5000)
    for (let i = 0; i < n; i++) {
      const fmt = rng.int(8)
      const siz = rng.int(5)
      const dim = () => rng.pick([0, 1, 2, 3, 4, 8, 16, 32, 33, 64, 4096, 4097, -1, 1.5, NaN, rng.int(128)])
      const width = dim()
      const height = dim()
      const data = new Uint8Array(rng.int(3) === 0 ? rng.int(64) : rng.int(0x4000))
      for (let k = 0; k < data.length; k += 7) data[k] = rng.int(256)
      const rowBytes = rng.int(3) === 0 ? undefined : rng.pick([0, 1, 8, 16, 64, 128, -8, 0x10000, 2.5])
      const palCount = rng.pick([0, 1, 16, 256, 257, -1, 1.5, 0x7fffffff])
      let palette: Uint8Array | undefined
      tally.add(expectReaderOk(`palette case ${i}`, () => {
        const palBytes = new Uint8Array(rng.int(600))
        palette = decodePalette(palBytes, palCount, rng.pick(['RGBA16', 'IA16'] as TlutType[]), 'TLUT')
        expect(palette.length).toBe(palCount * 4)
      }))
      tally.add(expectReaderOk(`texture case ${i}: fmt ${fmt} siz ${siz} ${width}×${height} pitch ${rowBytes} data ${data.length}`, () => {
        const out = decodeTexture({ fmt, siz, width, height, data, rowBytes, palette: rng.int(2) ? palette : undefined, deinterleave: rng.int(2) === 1 })
        expect(out.length).toBe(width * height * 4)
      }))
    }
    tally.expectShares('n64 textures', { ok: 0.1, error: 0.35 }) // seed 0: 22 % ok, 78 % errors
  })
})
