import { describe, expect, it } from 'vitest'
import { decodeEtc1, encodeEtc1 } from '../../../../../src-shared/formats/pica/etc1'
import { decodePica, encodePica } from '../../../../../src-shared/formats/pica/texture-codec'
import { psnr } from '../../../../../src-shared/formats/pica/image'
import { EXPAND4, QUANT4 } from '../../../../../src-shared/formats/pica/texel-codec'

const hex = (s: string) => Uint8Array.from(s.split(' ').map((h) => parseInt(h, 16)))
const rgb = (img: Uint8Array, w: number, x: number, y: number) => Array.from(img.subarray((y * w + x) * 4, (y * w + x) * 4 + 3))

/** One 8×8 ETC1 tile with `block` as its top-left block and zero blocks elsewhere. */
function tileWith(block: Uint8Array, blockBytes = 8): Uint8Array {
  const t = new Uint8Array(4 * blockBytes)
  t.set(block, 0)
  return t
}

describe('ETC1 decoder: spec §15.3 vectors', () => {
  it('block A (individual, no flip, tables 0 and 7)', () => {
    const img = decodeEtc1(tileWith(hex('AA AA CC CC 1C 0F 88 F0')), 8, 8, false)
    const expected = [
      [[255, 138, 2], [255, 138, 2], [47, 183, 255], [47, 183, 255]],
      [[255, 144, 8], [255, 144, 8], [183, 255, 255], [183, 255, 255]],
      [[253, 134, 0], [253, 134, 0], [0, 89, 208], [0, 89, 208]],
      [[247, 128, 0], [247, 128, 0], [0, 0, 72], [0, 0, 72]],
    ]
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) expect(rgb(img, 8, x, y)).toEqual(expected[y]![x])
    expect(img[3]).toBe(255) // ETC1 is opaque
  })

  it('block B (differential, flip)', () => {
    const img = decodeEtc1(tileWith(hex('FF FF 00 00 47 23 47 81')), 8, 8, false)
    for (let x = 0; x < 4; x++) {
      expect(rgb(img, 8, x, 0)).toEqual([161, 95, 62])
      expect(rgb(img, 8, x, 1)).toEqual([161, 95, 62])
      expect(rgb(img, 8, x, 2)).toEqual([157, 74, 74])
      expect(rgb(img, 8, x, 3)).toEqual([157, 74, 74])
    }
  })

  it('ETC1A4: alpha block first; nibble order (0,0), (0,1), …', () => {
    const block = new Uint8Array(16)
    block.set(hex('F0 00 00 00 00 00 00 00'), 0)
    block.set(hex('AA AA CC CC 1C 0F 88 F0'), 8)
    const img = decodeEtc1(tileWith(block, 16), 8, 8, true)
    expect(img[3]).toBe(0) // (0,0)
    expect(img[(1 * 8 + 0) * 4 + 3]).toBe(255) // (0,1)
    expect(img[(0 * 8 + 1) * 4 + 3]).toBe(0) // (1,0)
    expect(rgb(img, 8, 0, 0)).toEqual([255, 138, 2])
  })

  it('blocks of a tile are top-left, top-right, bottom-left, bottom-right', () => {
    // individual mode, both halves the same 4-bit colour, table 0, all indices 0 (+2)
    const block = (r: number, g: number, b: number) => {
      const h = ((r * 17) << 24) | ((g * 17) << 16) | ((b * 17) << 8)
      const out = new Uint8Array(8)
      new DataView(out.buffer).setUint32(4, h >>> 0, true)
      return out
    }
    const t = new Uint8Array(32)
    t.set(block(1, 0, 0), 0); t.set(block(0, 1, 0), 8); t.set(block(0, 0, 1), 16); t.set(block(1, 1, 0), 24)
    const img = decodeEtc1(t, 8, 8, false)
    expect(rgb(img, 8, 0, 0)).toEqual([19, 2, 2])
    expect(rgb(img, 8, 7, 0)).toEqual([2, 19, 2])
    expect(rgb(img, 8, 0, 7)).toEqual([2, 2, 19])
    expect(rgb(img, 8, 7, 7)).toEqual([19, 19, 2])
  })

  it('clamps an invalid differential colour instead of wrapping', () => {
    // R: c1 = 31, d = +3 → 34, clamped to 31 (255); G and B zero
    const h = ((31 << 3) | 3) << 24
    const b = new Uint8Array(8)
    new DataView(b.buffer).setUint32(4, (h | 2) >>> 0, true) // diff bit, no flip
    const img = decodeEtc1(tileWith(b), 8, 8, false)
    expect(rgb(img, 8, 3, 0)).toEqual([255, 2, 2])
  })
})

// ---- encoder ----------------------------------------------------------------------------------

function rng(seed: number) {
  let s = seed >>> 0
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296)
}
const c8 = (v: number) => Math.max(0, Math.min(255, Math.round(v)))

/** Smooth gradients plus noise. */
function gradientNoise(w: number, h: number, noise: number, seed = 3): Uint8Array {
  const r = rng(seed), a = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = (y * w + x) * 4, n = () => (r() - 0.5) * noise
    a[o] = c8((255 * x) / w + n()); a[o + 1] = c8((255 * (x + y)) / (w + h) + n()); a[o + 2] = c8(255 - (255 * y) / h + n()); a[o + 3] = 255
  }
  return a
}

/** "Photographic-like": blurred colour blobs, a hard-edged object, shading and sensor noise. */
function photoLike(w: number, h: number, seed = 9): Uint8Array {
  const r = rng(seed)
  const blobs = Array.from({ length: 12 }, () => ({ x: r() * w, y: r() * h, s: 6 + r() * w * 0.3, c: [r() * 255, r() * 255, r() * 255] }))
  const a = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let cr = 40, cg = 50, cb = 60, wsum = 1
    for (const b of blobs) {
      const k = Math.exp(-((x - b.x) ** 2 + (y - b.y) ** 2) / (2 * b.s * b.s))
      cr += b.c[0]! * k * 2; cg += b.c[1]! * k * 2; cb += b.c[2]! * k * 2; wsum += k * 2
    }
    const inside = (x - w * 0.6) ** 2 / (w * 0.15) ** 2 + (y - h * 0.4) ** 2 / (h * 0.25) ** 2 < 1
    const shade = 0.75 + 0.25 * Math.sin(x / 11) * Math.cos(y / 7)
    const o = (y * w + x) * 4
    a[o] = c8((inside ? 230 : cr / wsum) * shade + (r() - 0.5) * 6)
    a[o + 1] = c8((inside ? 190 : cg / wsum) * shade + (r() - 0.5) * 6)
    a[o + 2] = c8((inside ? 150 : cb / wsum) * shade + (r() - 0.5) * 6)
    a[o + 3] = 255
  }
  return a
}

function headers(enc: Uint8Array, blockBytes: number): number[] {
  const v = new DataView(enc.buffer, enc.byteOffset, enc.byteLength)
  const out: number[] = []
  for (let o = blockBytes - 8; o < enc.byteLength; o += blockBytes) out.push(v.getUint32(o + 4, true))
  return out
}

describe('ETC1 encoder', () => {
  it('≥ 30 dB on smooth gradients with noise', () => {
    const img = gradientNoise(128, 128, 16)
    const dec = decodeEtc1(encodeEtc1(img, 128, 128, false), 128, 128, false)
    expect(psnr(img, dec)).toBeGreaterThanOrEqual(30)
  })

  it('≥ 30 dB on photographic-like content', () => {
    const img = photoLike(128, 128)
    const dec = decodeEtc1(encodeEtc1(img, 128, 128, false), 128, 128, false)
    expect(psnr(img, dec)).toBeGreaterThanOrEqual(30)
  })

  it('a wider search never does worse than the fast preset', () => {
    const img = photoLike(64, 64, 4)
    const fast = psnr(img, decodeEtc1(encodeEtc1(img, 64, 64, false, { effort: 'fast' }), 64, 64, false))
    const normal = psnr(img, decodeEtc1(encodeEtc1(img, 64, 64, false, { effort: 'normal' }), 64, 64, false))
    const high = psnr(img, decodeEtc1(encodeEtc1(img, 64, 64, false, { effort: 'high' }), 64, 64, false))
    expect(normal).toBeGreaterThanOrEqual(fast - 0.05)
    expect(high).toBeGreaterThanOrEqual(normal - 0.05)
  })

  it('picks flip by the split of the block and individual mode for far-apart colours', () => {
    // left/right halves red/blue: flip 0, individual (red − blue is far beyond −4..+3 in 5 bits)
    const lr = new Uint8Array(8 * 8 * 4), tb = new Uint8Array(8 * 8 * 4)
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
      lr.set((x & 3) < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 8 + x) * 4)
      tb.set((y & 3) < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 8 + x) * 4)
    }
    for (const [img, flip] of [[lr, 0], [tb, 1]] as const) {
      const enc = encodeEtc1(img, 8, 8, false)
      for (const h of headers(enc, 8)) {
        expect(h & 1).toBe(flip)
        expect((h >>> 1) & 1).toBe(0)
      }
      expect(psnr(img, decodeEtc1(enc, 8, 8, false))).toBeGreaterThan(40)
    }
  })

  it('uses differential mode for close colours and never emits an out-of-range differential block', () => {
    const img = gradientNoise(64, 64, 40, 17)
    const enc = encodeEtc1(img, 64, 64, false)
    let diffBlocks = 0
    for (const h of headers(enc, 8)) {
      if (!((h >>> 1) & 1)) continue
      diffBlocks++
      for (const shift of [24, 16, 8]) {
        const byte = (h >>> shift) & 0xff
        const c2 = (byte >> 3) + (((byte & 7) << 29) >> 29)
        expect(c2).toBeGreaterThanOrEqual(0)
        expect(c2).toBeLessThanOrEqual(31)
      }
    }
    expect(diffBlocks).toBeGreaterThan(0)
  })

  it('reproduces a flat colour that ETC1 can represent exactly', () => {
    // 5-bit 16 → 132; table 0 modifier +2 → 134 (plus -2 → 130): 134 is exact
    const img = new Uint8Array(8 * 8 * 4)
    for (let i = 0; i < 64; i++) img.set([134, 134, 134, 255], i * 4)
    expect(psnr(img, decodeEtc1(encodeEtc1(img, 8, 8, false), 8, 8, false))).toBe(Infinity)
  })

  it('ETC1A4 alpha = round(a·15/255) per texel, colour as ETC1', () => {
    const img = gradientNoise(16, 16, 0)
    for (let i = 0; i < 256; i++) img[i * 4 + 3] = i
    const enc = encodePica(img, 16, 16, 'ETC1A4')
    expect(enc.byteLength).toBe(16 * 16)
    const dec = decodePica(enc, 16, 16, 'ETC1A4')
    for (let i = 0; i < 256; i++) expect(dec[i * 4 + 3]).toBe(EXPAND4[QUANT4[i]!])
    // the colour half of every 16-byte block is the ETC1 block of the same picture
    const etc1 = encodePica(img, 16, 16, 'ETC1')
    for (let b = 0; b < 16; b++) expect(Array.from(enc.subarray(b * 16 + 8, b * 16 + 16))).toEqual(Array.from(etc1.subarray(b * 8, b * 8 + 8)))
  })
})

describe('ETC1 block encoder bookkeeping', () => {
  it('the error the search reports is the error of the block it emits (random and two-tone blocks)', async () => {
    const { encodeEtc1Block, decodeEtc1Block } = await import('../../../../../src-shared/formats/pica/etc1')
    const r = rng(77)
    const out = new Uint8Array(4 * 4 * 4)
    for (let n = 0; n < 400; n++) {
      const rgb = new Int32Array(48)
      const twoTone = n % 2 === 0
      const c1 = [r() * 255, r() * 255, r() * 255], c2 = [r() * 255, r() * 255, r() * 255]
      for (let p = 0; p < 16; p++) {
        const c = twoTone && ((n & 4 ? p >> 2 : p & 3) >= 2) ? c2 : c1
        for (let k = 0; k < 3; k++) rgb[p * 3 + k] = c8(c[k]! + (r() - 0.5) * (twoTone ? 20 : 200))
      }
      for (const effort of ['fast', 'normal', 'high'] as const) {
        const e = encodeEtc1Block(rgb, effort)
        decodeEtc1Block(e.h, e.i, out, 4, 0, 0)
        let err = 0
        for (let p = 0; p < 16; p++) for (let k = 0; k < 3; k++) err += (out[p * 4 + k]! - rgb[p * 3 + k]!) ** 2
        expect(err).toBe(e.err)
      }
    }
  })
})

describe('ETC1 encoder: search and split', () => {
  it('every pixel takes the best of its four modifiers for the base and table emitted (near-black/white blocks clamp)', async () => {
    const { encodeEtc1Block, decodeEtc1Block } = await import('../../../../../src-shared/formats/pica/etc1')
    const r = rng(5)
    const out = new Uint8Array(4 * 4 * 4)
    const pixErr = (rgbv: Int32Array, p: number) => {
      let e = 0
      for (let k = 0; k < 3; k++) e += (out[p * 4 + k]! - rgbv[p * 3 + k]!) ** 2
      return e
    }
    for (let n = 0; n < 150; n++) {
      const rgbv = new Int32Array(48)
      // a third each: mid-range, near 0, near 255 (the last two exercise the clamped path)
      const centre = n % 3 === 0 ? 128 : n % 3 === 1 ? 10 : 245
      for (let i = 0; i < 48; i++) rgbv[i] = c8(centre + (r() - 0.5) * 60)
      for (const effort of ['fast', 'normal', 'high'] as const) {
        const e = encodeEtc1Block(rgbv, effort)
        decodeEtc1Block(e.h, e.i, out, 4, 0, 0)
        for (let p = 0; p < 16; p++) {
          const chosen = pixErr(rgbv, p)
          const k = (p & 3) * 4 + (p >> 2) // index bit of pixel (x, y) = (p & 3, p >> 2)
          for (let idx = 0; idx < 4; idx++) {
            const i = ((e.i & ~((1 << k) | (1 << (16 + k)))) | ((idx & 1) << k) | ((idx >> 1) << (16 + k))) >>> 0
            decodeEtc1Block(e.h, i, out, 4, 0, 0)
            expect(pixErr(rgbv, p)).toBeGreaterThanOrEqual(chosen)
          }
          decodeEtc1Block(e.h, e.i, out, 4, 0, 0)
        }
      }
    }
  })

  it('tile rows encoded apart concatenate to the whole level (ETC1 and ETC1A4)', async () => {
    const { etc1TileRowBytes } = await import('../../../../../src-shared/formats/pica/etc1')
    const img = photoLike(24, 32, 8)
    for (let i = 0; i < 24 * 32; i++) img[i * 4 + 3] = (i * 7) & 255
    for (const alpha of [false, true]) {
      const whole = encodeEtc1(img, 24, 32, alpha, { effort: 'fast' })
      expect(etc1TileRowBytes(24, alpha) * 4).toBe(whole.byteLength)
      const parts = [[0, 1], [1, 3], [3, 4]].map(([from, to]) => encodeEtc1(img, 24, 32, alpha, { effort: 'fast', tileRows: { from: from!, to: to! } }))
      expect(parts.map((p) => p.byteLength)).toEqual([1, 2, 1].map((n) => n * etc1TileRowBytes(24, alpha)))
      expect(Buffer.concat(parts).equals(Buffer.from(whole))).toBe(true)
    }
  })
})
