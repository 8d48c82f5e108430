/**
 * Black-box contract tests of the GF package-set commands (CLI.md "GF package sets", spec
 * gf-packages.md §1–4, 9, 10, 12, 15). Every input is built by hand in this file from the spec's
 * tables (no fixture builder, no code of src-*), every expected pixel and byte is computed by the
 * spec's rules written out again here, and the commands run through `runCli`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { createHash } from 'node:crypto'
import { PNG } from 'pngjs'
import { cli, spawnCli } from '../helpers/cli'

// ---- bytes by hand ----------------------------------------------------------------------------

function u16(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff]
}
function u32(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]
}
function ascii(s: string, size: number): number[] {
  const out = new Array<number>(size).fill(0)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}
function cat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const n = parts.reduce((a, p) => a + p.length, 0)
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}
const hexs = (n: number) => `0x${n.toString(16).toUpperCase()}`

interface PkgOpts {
  /** Header size (bytes before entry 0); default the minimal 4 + 4(N+1). */
  header?: number
  /** Every entry start is padded to this (default 4). */
  align?: number
  fill?: number
  /** Bytes after off[N]. */
  tail?: number[]
  magic?: string
}

/** A mini package (§2.1): 2 letters, u16 N, N+1 u32 offsets from the package start, last = end. */
function pkg(entries: (Uint8Array | number[])[], o: PkgOpts = {}): { bytes: Uint8Array; offsets: number[] } {
  const n = entries.length
  const align = o.align ?? 4
  const fill = o.fill ?? 0
  let cursor = Math.max(o.header ?? 0, 4 + 4 * (n + 1))
  const headerLen = cursor
  const offsets: number[] = []
  const body: number[] = []
  for (const e of entries) {
    offsets.push(cursor)
    body.push(...e)
    cursor += e.length
    while (e.length && cursor % align) {
      body.push(fill)
      cursor++
    }
  }
  offsets.push(cursor)
  const head = [...ascii(o.magic ?? 'PC', 2), ...u16(n), ...offsets.flatMap(u32)]
  while (head.length < headerLen) head.push(0)
  return { bytes: cat(head, body, o.tail ?? []), offsets }
}

const GF_ID = {
  RGB565: 0x02, RGB8: 0x03, RGBA8: 0x04, RGBA4: 0x16, RGBA5551: 0x17, LA8: 0x23, HILO8: 0x24,
  L8: 0x25, A8: 0x26, LA4: 0x27, L4: 0x28, A4: 0x29, ETC1: 0x2a, ETC1A4: 0x2b,
} as const
type Fmt = keyof typeof GF_ID
const FORMATS = Object.keys(GF_ID) as Fmt[]
const BPP: Record<Fmt, number> = {
  RGB565: 16, RGB8: 24, RGBA8: 32, RGBA4: 16, RGBA5551: 16, LA8: 16, HILO8: 16, L8: 8, A8: 8, LA4: 8, L4: 4, A4: 4, ETC1: 4, ETC1A4: 8,
}

/** GFTexture entry (§9.1, header as §15.4). `writerBytes` puts odd values in the fields only SPICA's writer fills. */
function gfTexture(name: string, w: number, h: number, format: Fmt | number, mips: number, pixels: Uint8Array, o: { odd?: boolean; textureLength?: number } = {}): Uint8Array {
  const len = o.textureLength ?? pixels.length
  const fmt = typeof format === 'number' ? format : GF_ID[format]
  const head = [
    ...u32(0x15041213), ...u32(o.odd ? 7 : 1), ...ascii('texture', 8),
    ...u32(o.odd ? 0x12345678 : len + 0x68), ...u32(o.odd ? 0 : 0xffffffff), ...u32(len),
    ...(o.odd ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : new Array<number>(12).fill(0)),
    ...ascii(name, 0x40), ...u16(w), ...u16(h), ...u16(fmt), ...u16(mips),
    ...new Array<number>(16).fill(o.odd ? 0x5a : 0xff),
  ]
  expect(head.length).toBe(0x80)
  const px = new Uint8Array(len)
  px.set(pixels.subarray(0, Math.min(len, pixels.length)))
  return cat(head, px)
}

// ---- the spec's tables, written out again -----------------------------------------------------

/** §15.2: storage index of texel (x, y) in an 8×8 tile, row y = 0 at the top. */
const TILE_TABLE = [
  [0, 1, 4, 5, 16, 17, 20, 21],
  [2, 3, 6, 7, 18, 19, 22, 23],
  [8, 9, 12, 13, 24, 25, 28, 29],
  [10, 11, 14, 15, 26, 27, 30, 31],
  [32, 33, 36, 37, 48, 49, 52, 53],
  [34, 35, 38, 39, 50, 51, 54, 55],
  [40, 41, 44, 45, 56, 57, 60, 61],
  [42, 43, 46, 47, 58, 59, 62, 63],
]
const IN_TILE: [number, number][] = []
TILE_TABLE.forEach((row, y) => row.forEach((i, x) => (IN_TILE[i] = [x, y])))

/** Image position (x, y) of storage texel n (§10.1: tiles row by row, Morton inside). */
function texelPos(n: number, w: number): [number, number] {
  const t = Math.floor(n / 64)
  const tilesX = w / 8
  const [ix, iy] = IN_TILE[n % 64]!
  return [(t % tilesX) * 8 + ix, Math.floor(t / tilesX) * 8 + iy]
}

const e4 = (v: number) => v * 17
const e5 = (v: number) => (v << 3) | (v >> 2)
const e6 = (v: number) => (v << 2) | (v >> 4)
const q = (v: number, bits: number) => Math.round((v * ((1 << bits) - 1)) / 255)

/** §10.2 decoding of storage texel n of `data` to RGBA (A8/A4 RGB = 255, HiLo8 B = 0). */
function texelRgba(f: Fmt, d: Uint8Array, n: number): [number, number, number, number] {
  const v16 = () => d[n * 2]! | (d[n * 2 + 1]! << 8)
  const nib = () => (n & 1 ? d[n >> 1]! >> 4 : d[n >> 1]! & 15)
  switch (f) {
    case 'RGBA8': return [d[n * 4 + 3]!, d[n * 4 + 2]!, d[n * 4 + 1]!, d[n * 4]!]
    case 'RGB8': return [d[n * 3 + 2]!, d[n * 3 + 1]!, d[n * 3]!, 255]
    case 'RGBA5551': { const v = v16(); return [e5(v >> 11), e5((v >> 6) & 31), e5((v >> 1) & 31), v & 1 ? 255 : 0] }
    case 'RGB565': { const v = v16(); return [e5(v >> 11), e6((v >> 5) & 63), e5(v & 31), 255] }
    case 'RGBA4': { const v = v16(); return [e4(v >> 12), e4((v >> 8) & 15), e4((v >> 4) & 15), e4(v & 15)] }
    case 'LA8': { const l = d[n * 2 + 1]!; return [l, l, l, d[n * 2]!] }
    case 'HILO8': return [d[n * 2 + 1]!, d[n * 2]!, 0, 255]
    case 'L8': return [d[n]!, d[n]!, d[n]!, 255]
    case 'A8': return [255, 255, 255, d[n]!]
    case 'LA4': { const v = d[n]!; return [e4(v >> 4), e4(v >> 4), e4(v >> 4), e4(v & 15)] }
    case 'L4': { const l = e4(nib()); return [l, l, l, 255] }
    case 'A4': return [255, 255, 255, e4(nib())]
    default: throw new Error(`not a texel format: ${f}`)
  }
}

/** The whole image (row 0 = top) that storage bytes `d` of w×h in format f decode to. */
function expectedImage(f: Fmt, d: Uint8Array, w: number, h: number): Uint8Array {
  const img = new Uint8Array(w * h * 4)
  for (let n = 0; n < w * h; n++) {
    const [x, y] = texelPos(n, w)
    img.set(texelRgba(f, d, n), (y * w + x) * 4)
  }
  return img
}

/** §10.2 encoding (exact reverse, rounding) of an image whose grey formats get grey input. */
function expectedBytes(f: Fmt, img: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array((w * h * BPP[f]) / 8)
  for (let n = 0; n < w * h; n++) {
    const [x, y] = texelPos(n, w)
    const p = (y * w + x) * 4
    const [r, g, b, a] = [img[p]!, img[p + 1]!, img[p + 2]!, img[p + 3]!]
    const put16 = (v: number) => out.set(u16(v), n * 2)
    switch (f) {
      case 'RGBA8': out.set([a, b, g, r], n * 4); break
      case 'RGB8': out.set([b, g, r], n * 3); break
      case 'RGBA5551': put16((q(r, 5) << 11) | (q(g, 5) << 6) | (q(b, 5) << 1) | q(a, 1)); break
      case 'RGB565': put16((q(r, 5) << 11) | (q(g, 6) << 5) | q(b, 5)); break
      case 'RGBA4': put16((q(r, 4) << 12) | (q(g, 4) << 8) | (q(b, 4) << 4) | q(a, 4)); break
      case 'LA8': out.set([a, r], n * 2); break
      case 'HILO8': out.set([g, r], n * 2); break
      case 'L8': out[n] = r; break
      case 'A8': out[n] = a; break
      case 'LA4': out[n] = (q(r, 4) << 4) | q(a, 4); break
      case 'L4': out[n >> 1]! |= q(r, 4) << ((n & 1) * 4); break
      case 'A4': out[n >> 1]! |= q(a, 4) << ((n & 1) * 4); break
      default: throw new Error(`not a texel format: ${f}`)
    }
  }
  return out
}

/** Deterministic raw texel bytes (every byte value shows up; no structure a bug could hide in). */
function rawBytes(size: number, seed: number): Uint8Array {
  const b = new Uint8Array(size)
  let s = seed * 2654435761 >>> 0
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    b[i] = s >>> 24
  }
  return b
}

/** A replacement picture: smooth colour ramps; grey for the luminance formats (spec leaves colour → L open). */
function picture(w: number, h: number, f: Fmt, seed: number): Uint8Array {
  const img = new Uint8Array(w * h * 4)
  const grey = f === 'L8' || f === 'L4' || f === 'LA8' || f === 'LA4'
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const r = (x * 255 / Math.max(1, w - 1) + seed * 13) & 0xff
      const g = (y * 255 / Math.max(1, h - 1) + seed * 7) & 0xff
      const b = ((x + y) * 97 + seed) & 0xff
      const a = ((x * 31 + y * 17 + seed * 5) * 3) & 0xff
      img.set(grey ? [r, r, r, a] : [r, g, b, a], (y * w + x) * 4)
    }
  }
  return img
}

function pngBytes(rgba: Uint8Array, w: number, h: number): Buffer {
  const png = new PNG({ width: w, height: h })
  png.data = Buffer.from(rgba)
  return PNG.sync.write(png)
}
function readPngFile(p: string): { width: number; height: number; rgba: Uint8Array } {
  const png = PNG.sync.read(readFileSync(p))
  return { width: png.width, height: png.height, rgba: new Uint8Array(png.data) }
}

// ETC1 test vectors (§15.3), as stored in a 3DS texture.
const ETC_A = [0xaa, 0xaa, 0xcc, 0xcc, 0x1c, 0x0f, 0x88, 0xf0]
const ETC_A_ROWS = [
  [[255, 138, 2], [255, 138, 2], [47, 183, 255], [47, 183, 255]],
  [[255, 144, 8], [255, 144, 8], [183, 255, 255], [183, 255, 255]],
  [[253, 134, 0], [253, 134, 0], [0, 89, 208], [0, 89, 208]],
  [[247, 128, 0], [247, 128, 0], [0, 0, 72], [0, 0, 72]],
]
const ETC_B = [0xff, 0xff, 0x00, 0x00, 0x47, 0x23, 0x47, 0x81]
const etcB = (_x: number, y: number) => (y < 2 ? [161, 95, 62] : [157, 74, 74])
const etcA = (x: number, y: number) => ETC_A_ROWS[y]![x]!

// ---- the hand-made set --------------------------------------------------------------------------

interface TexCase {
  file: string
  entry: number
  name: string
  format: Fmt
  w: number
  h: number
  mips: number
  pixels: Uint8Array
  /** Level-0 image the PNG must show. */
  image: Uint8Array
}

const SIZES: [number, number][] = [[8, 8], [16, 8], [8, 16], [32, 16], [16, 32], [8, 8], [16, 16]]

function buildSet() {
  const tex: TexCase[] = []
  const files = new Map<string, Uint8Array>()

  // 1.bin: the 12 texel formats (hand bytes), then ETC1 and ETC1A4 from the §15.3 vectors; SPICA's
  // PC writer layout: 0x80-byte header (31 slots), entries 0x80-aligned.
  const e1: Uint8Array[] = []
  FORMATS.filter((f) => !f.startsWith('ETC')).forEach((f, i) => {
    const [w, h] = SIZES[i % SIZES.length]!
    const pixels = rawBytes((w * h * BPP[f]) / 8, i + 1)
    const name = `pm9999_${f}_Tex`
    tex.push({ file: '1.bin', entry: i, name, format: f, w, h, mips: 1, pixels, image: expectedImage(f, pixels, w, h) })
    e1.push(gfTexture(name, w, h, f, 1, pixels, { odd: i % 3 === 1 }))
  })
  {
    // ETC1 16×8: tile 0 = blocks A, B, B, A (TL, TR, BL, BR); tile 1 = B, A, A, B.
    const blocks = [ETC_A, ETC_B, ETC_B, ETC_A, ETC_B, ETC_A, ETC_A, ETC_B]
    const pixels = Uint8Array.from(blocks.flat())
    const img = new Uint8Array(16 * 8 * 4)
    blocks.forEach((blk, k) => {
      const tx = (k >> 2) * 8 + (k & 1) * 4, ty = ((k >> 1) & 1) * 4
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) img.set([...(blk === ETC_A ? etcA(x, y) : etcB(x, y)), 255], ((ty + y) * 16 + tx + x) * 4)
    })
    tex.push({ file: '1.bin', entry: e1.length, name: 'pm9999_ETC1', format: 'ETC1', w: 16, h: 8, mips: 1, pixels, image: img })
    e1.push(gfTexture('pm9999_ETC1', 16, 8, 'ETC1', 1, pixels))
  }
  {
    // ETC1A4 8×8: each block = alpha u64 then colour. TL alpha = §15.3 example (F0 00 …);
    // TR alpha nibble k = k (pixel (x, y) = nibble x·4 + y); BL all 0xF; BR all 0.
    const alphas = [
      [0xf0, 0, 0, 0, 0, 0, 0, 0],
      [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe],
      new Array<number>(8).fill(0xff),
      new Array<number>(8).fill(0),
    ]
    const alphaOf = [
      (x: number, y: number) => (x === 0 && y === 1 ? 255 : 0),
      (x: number, y: number) => (x * 4 + y) * 17,
      () => 255,
      () => 0,
    ]
    const colours = [ETC_A, ETC_B, ETC_A, ETC_B]
    const pixels = Uint8Array.from(alphas.flatMap((a, k) => [...a, ...colours[k]!]))
    const img = new Uint8Array(8 * 8 * 4)
    for (let k = 0; k < 4; k++) {
      const bx = (k & 1) * 4, by = (k >> 1) * 4
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) img.set([...(colours[k] === ETC_A ? etcA(x, y) : etcB(x, y)), alphaOf[k]!(x, y)], ((by + y) * 8 + bx + x) * 4)
    }
    tex.push({ file: '1.bin', entry: e1.length, name: 'pm9999_ETC1A4', format: 'ETC1A4', w: 8, h: 8, mips: 1, pixels, image: img })
    e1.push(gfTexture('pm9999_ETC1A4', 8, 8, 'ETC1A4', 1, pixels))
  }
  files.set('1.bin', pkg(e1, { header: 0x80, align: 0x80 }).bytes)

  // 2.bin: pk3DS-style (minimal header, 4-byte padding): the shiny pack repeats names; a
  // vertical-orientation probe (8×16 RGB565: top tile red, bottom tile blue), a mip-mapped
  // texture and an L4 texture whose TextureLength is rounded up to 0x80 (SPICA's writer).
  {
    const red = [0x00, 0xf8], blue = [0x1f, 0x00]
    const flip = Uint8Array.from([...new Array<number[]>(64).fill(red).flat(), ...new Array<number[]>(64).fill(blue).flat()])
    const flipImg = new Uint8Array(8 * 16 * 4)
    for (let y = 0; y < 16; y++) for (let x = 0; x < 8; x++) flipImg.set(y < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 8 + x) * 4)
    // 16×16 RGB565 + one 8×8 mip level: 512 + 128 bytes.
    const mip0 = rawBytes(512, 77), mip1 = rawBytes(128, 78)
    const l4 = rawBytes(32, 79)
    // §15.2 RGB565 example in the first tile of an 8×8 texture.
    const ex = new Uint8Array(128)
    ex.set([0x00, 0xf8, 0xe0, 0x07, 0x1f, 0x00, 0xff, 0xff, 0x10, 0x84])
    const e2 = [
      gfTexture('pm9999_RGB565_Tex', 8, 16, 'RGB565', 1, flip),
      gfTexture('pm9999_Mip', 16, 16, 'RGB565', 2, cat(mip0, mip1)),
      gfTexture('pm9999_L4pad', 8, 8, 'L4', 1, l4, { textureLength: 0x80 }),
      gfTexture('pm9999_Example', 8, 8, 'RGB565', 1, ex),
    ]
    tex.push({ file: '2.bin', entry: 0, name: 'pm9999_RGB565_Tex', format: 'RGB565', w: 8, h: 16, mips: 1, pixels: flip, image: flipImg })
    tex.push({ file: '2.bin', entry: 1, name: 'pm9999_Mip', format: 'RGB565', w: 16, h: 16, mips: 2, pixels: cat(mip0, mip1), image: expectedImage('RGB565', mip0, 16, 16) })
    const l4pad = new Uint8Array(0x80)
    l4pad.set(l4)
    tex.push({ file: '2.bin', entry: 2, name: 'pm9999_L4pad', format: 'L4', w: 8, h: 8, mips: 1, pixels: l4pad, image: expectedImage('L4', l4, 8, 8) })
    tex.push({ file: '2.bin', entry: 3, name: 'pm9999_Example', format: 'RGB565', w: 8, h: 8, mips: 1, pixels: ex, image: expectedImage('RGB565', ex, 8, 8) })
    files.set('2.bin', pkg(e2, { align: 4 }).bytes)
  }

  // 3.bin: padded header (0x40), fill 0xFF, one empty entry between two textures.
  {
    const a = rawBytes(8 * 8, 90), b = rawBytes(8 * 32 / 2, 91)
    const e3 = [gfTexture('pm9999_Gray', 8, 8, 'A8', 1, a), new Uint8Array(0), gfTexture('pm9999_Tall', 8, 32, 'A4', 1, b)]
    tex.push({ file: '3.bin', entry: 0, name: 'pm9999_Gray', format: 'A8', w: 8, h: 8, mips: 1, pixels: a, image: expectedImage('A8', a, 8, 8) })
    tex.push({ file: '3.bin', entry: 2, name: 'pm9999_Tall', format: 'A4', w: 8, h: 32, mips: 1, pixels: b, image: expectedImage('A4', b, 8, 32) })
    files.set('3.bin', pkg(e3, { header: 0x40, align: 0x10, fill: 0xff }).bytes)
  }

  // 0.bin: two models (16-aligned), a nested shader package, another nested one (§1, §2.2 step 5).
  const model = (tag: number) => cat(u32(0x15122117), u32(tag), ascii('gfmodel', 8), u32(0x10), u32(0xffffffff), new Array<number>(16).fill(tag))
  const shader = (tag: number) => cat(u32(0x00000bad), new Array<number>(12).fill(tag))
  const nestedA = pkg([shader(1), shader(2)], { align: 16 })
  const nestedB = pkg([shader(3)], { align: 16 })
  const p0 = pkg([model(1), model(2), nestedA.bytes, nestedB.bytes], { header: 0x20, align: 16 })
  files.set('0.bin', p0.bytes)

  // 4.bin–7.bin: motions, some empty; 6.bin has an entry starting "PC" that is not a valid package.
  const motion = (n: number) => cat(u32(0x00060000), u32(n), new Array<number>(8).fill(n))
  files.set('4.bin', pkg([motion(1), new Uint8Array(0), motion(2)]).bytes)
  files.set('5.bin', pkg([motion(3)]).bytes)
  files.set('6.bin', pkg([cat(ascii('PC', 2), u16(0x7fff), u32(0)), motion(4)]).bytes)
  files.set('7.bin', pkg([]).bytes)
  // 8.bin: a BCH stub, a GFModelPack signature, 3 odd bytes, random bytes, and a tail after off[N].
  const bch = cat(ascii('BCH', 4), [0x21, 0x21], u16(0x42), new Array<number>(0x30).fill(0))
  files.set('8.bin', pkg([bch, u32(0x00010000), [1, 2, 3], [0x99, 0x98, 0x97, 0x96, 0x95]], { align: 1, tail: [0xee, 0xee] }).bytes)

  return { files, tex, p0, nestedA, nestedB }
}

// ---- harness -------------------------------------------------------------------------------------

let tmp: string
let setDir: string
let built: ReturnType<typeof buildSet>

function writeSet(name: string, files: Map<string, Uint8Array>): string {
  const dir = path.join(tmp, name)
  mkdirSync(dir, { recursive: true })
  for (const [n, b] of files) writeFileSync(path.join(dir, n), b)
  return dir
}
function sha(p: string): string {
  return createHash('sha256').update(readFileSync(p)).digest('hex')
}
function hashes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((n) => [n, sha(path.join(dir, n))]))
}
/** Offsets of a package read back by hand (for checks). */
function offsetsOf(b: Uint8Array): number[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength)
  const n = v.getUint16(2, true)
  return Array.from({ length: n + 1 }, (_, i) => v.getUint32(4 + 4 * i, true))
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'contract-gf-'))
  built = buildSet()
  setDir = writeSet('set', built.files)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// ---- gf info ------------------------------------------------------------------------------------

describe('gf info --json', () => {
  it('lists every file with magic and every entry with index, absolute offset, length and kind', async () => {
    const r = await cli(['gf', 'info', setDir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = r.json()
    expect(j.files.map((f: { file: string }) => f.file)).toEqual(['0.bin', '1.bin', '2.bin', '3.bin', '4.bin', '5.bin', '6.bin', '7.bin', '8.bin'])
    for (const f of j.files) {
      expect(f.magic).toBe('PC')
      const offs = offsetsOf(built.files.get(f.file)!)
      expect(f.entries.length).toBe(offs.length - 1)
      f.entries.forEach((e: { index: number; offset: number; length: number }, i: number) => {
        expect(e.index).toBe(i)
        expect(e.offset).toBe(offs[i])
        expect(e.length).toBe(offs[i + 1]! - offs[i]!)
      })
    }
    const kinds = (file: string) => j.files.find((f: { file: string }) => f.file === file).entries.map((e: { kind: string }) => e.kind)
    expect(kinds('0.bin')).toEqual(['model', 'model', 'package', 'package'])
    expect(kinds('1.bin')).toEqual(new Array(14).fill('texture'))
    expect(kinds('3.bin')).toEqual(['texture', 'unknown', 'texture'])
    expect(kinds('4.bin')).toEqual(['motion', 'unknown', 'motion'])
    expect(kinds('6.bin')).toEqual(['unknown', 'motion'])
    expect(kinds('7.bin')).toEqual([])
    expect(kinds('8.bin')).toEqual(['bch', 'unknown', 'unknown', 'unknown'])
    // the tail after off[N] is a warning, not an error
    expect(r.stderr).toMatch(/8\.bin/)
  })

  it('nested packages keep offsets from their own start: children are listed at absolute file offsets', async () => {
    const j = (await cli(['gf', 'info', setDir, '--json'])).json()
    const e2 = j.files[0].entries[2]
    const start = built.p0.offsets[2]!
    expect(e2.offset).toBe(start)
    expect(e2.entries.map((c: { offset: number; length: number }) => [c.offset, c.length])).toEqual([
      [start + built.nestedA.offsets[0]!, built.nestedA.offsets[1]! - built.nestedA.offsets[0]!],
      [start + built.nestedA.offsets[1]!, built.nestedA.offsets[2]! - built.nestedA.offsets[1]!],
    ])
  })

  it('the §15.1 package (3 entries, one empty, minimal header) lists as texture / unknown / motion', async () => {
    const v = Uint8Array.from([0x50, 0x43, 0x03, 0x00, 0x14, 0, 0, 0, 0x1c, 0, 0, 0, 0x1c, 0, 0, 0, 0x24, 0, 0, 0, 0x13, 0x12, 0x04, 0x15, 0x41, 0x42, 0x43, 0x44, 0x00, 0x00, 0x06, 0x00, 0x01, 0x02, 0x00, 0x00])
    const dir = writeSet('vec151', new Map([['1.bin', v]]))
    const r = await cli(['gf', 'info', dir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().files).toMatchObject([{ file: '1.bin', magic: 'PC', entries: [
      { index: 0, offset: 0x14, length: 8, kind: 'texture' },
      { index: 1, offset: 0x1c, length: 0, kind: 'unknown' },
      { index: 2, offset: 0x1c, length: 8, kind: 'motion' },
    ] }])
    // the 8-byte "texture" cannot hold a GFTexture header: a warning naming file, entry and offset
    expect(r.stderr).toMatch(/1\.bin.*entry 0.*0x14/)
    // §15.1: repacking with no change reproduces the 36 bytes
    const out = path.join(tmp, 'vec151-out')
    const rr = await cli(['gf', 'replace', dir, '--out', out])
    expect(rr.code, rr.stderr).toBe(0)
    expect(Buffer.from(readFileSync(path.join(out, '1.bin'))).equals(Buffer.from(v))).toBe(true)
    expect(readdirSync(out)).toEqual(['1.bin'])
  })

  it('the texture builder of this file writes exactly the §15.4 header', () => {
    const e = gfTexture('Tex0', 8, 8, 'RGB565', 1, new Uint8Array(128))
    const want = [
      0x13, 0x12, 0x04, 0x15, 0x01, 0x00, 0x00, 0x00, 0x74, 0x65, 0x78, 0x74, 0x75, 0x72, 0x65, 0x00,
      0xe8, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x54, 0x65, 0x78, 0x30, 0x00, 0x00, 0x00, 0x00,
      ...new Array<number>(0x30).fill(0),
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x08, 0x00, 0x02, 0x00, 0x01, 0x00,
      ...new Array<number>(16).fill(0xff),
    ]
    expect(Array.from(e.subarray(0, 0x80))).toEqual(want)
    expect(e.length).toBe(0x80 + 128)
  })

  it('a pk3DS-style 0.bin (entries only 4-aligned) parses; a model off its 16-byte alignment is a warning naming file, entry and offset (§2.4)', async () => {
    const model = cat(u32(0x15122117), new Array<number>(20).fill(1))
    const p = pkg([model, model], { align: 4 })
    expect(p.offsets[1]! % 16).not.toBe(0)
    const dir = writeSet('pk3ds0', new Map([['0.bin', p.bytes]]))
    const r = await cli(['gf', 'info', dir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().files[0].entries.map((e: { kind: string }) => e.kind)).toEqual(['model', 'model'])
    expect(r.stderr).toMatch(new RegExp(`0\\.bin.*entry 1.*${hexs(p.offsets[1]!)}`))
  })

  it('missing set files are reported, not fatal', async () => {
    const m = new Map(built.files)
    m.delete('5.bin')
    m.delete('8.bin')
    const dir = writeSet('partial', m)
    const r = await cli(['gf', 'info', dir, '--json'])
    expect(r.code).toBe(0)
    expect(r.json().files.map((f: { file: string }) => f.file)).toEqual(['0.bin', '1.bin', '2.bin', '3.bin', '4.bin', '6.bin', '7.bin'])
    expect(r.stderr).toMatch(/5\.bin/)
    expect(r.stderr).toMatch(/8\.bin/)
  })
})

// ---- gf textures --------------------------------------------------------------------------------

describe('gf textures --json', () => {
  it('gives file, entry, name, width, height, format and mipmaps of every texture, in order', async () => {
    const r = await cli(['gf', 'textures', setDir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = r.json()
    expect(j).toEqual(built.tex.map((t) => expect.objectContaining({ file: t.file, entry: t.entry, name: t.name, width: t.w, height: t.h, format: t.format, mipmaps: t.mips })))
    expect(new Set(j.map((t: { format: string }) => t.format))).toEqual(new Set(FORMATS))
    for (const t of j) expect(typeof t.width).toBe('number')
  })
})

// ---- gf extract -----------------------------------------------------------------------------------

describe('gf extract', () => {
  let out: string
  beforeAll(async () => {
    out = path.join(tmp, 'png')
    const r = await cli(['gf', 'extract', setDir, '--out', out])
    expect(r.code, r.stderr).toBe(0)
  })

  it('writes DIR/<file without .bin>/<entry>_<name>.png for every texture and nothing else', () => {
    const want = built.tex.map((t) => path.join(t.file.replace('.bin', ''), `${t.entry}_${t.name}.png`)).sort()
    const got: string[] = []
    for (const d of readdirSync(out)) for (const f of readdirSync(path.join(out, d))) got.push(path.join(d, f))
    expect(got.sort()).toEqual(want)
  })

  for (const f of [...FORMATS, 'orientation', 'mipmaps', 'padded L4', '§15.2 example'] as const) {
    it(`pixels of ${f} match the hand computation (top row first)`, () => {
      const cases = {
        orientation: () => built.tex.filter((t) => t.name === 'pm9999_RGB565_Tex' && t.file === '2.bin'),
        mipmaps: () => built.tex.filter((t) => t.name === 'pm9999_Mip'),
        'padded L4': () => built.tex.filter((t) => t.name === 'pm9999_L4pad'),
        '§15.2 example': () => built.tex.filter((t) => t.name === 'pm9999_Example'),
      } as Record<string, () => TexCase[]>
      const list = cases[f]?.() ?? built.tex.filter((t) => t.file === '1.bin' && t.format === f)
      expect(list.length).toBe(1)
      const t = list[0]!
      const img = readPngFile(path.join(out, t.file.replace('.bin', ''), `${t.entry}_${t.name}.png`))
      expect([img.width, img.height]).toEqual([t.w, t.h])
      for (let i = 0; i < t.w * t.h; i++) {
        const got = Array.from(img.rgba.subarray(i * 4, i * 4 + 4))
        const exp = Array.from(t.image.subarray(i * 4, i * 4 + 4))
        if (got.join() !== exp.join()) expect({ x: i % t.w, y: Math.floor(i / t.w), got }).toEqual({ x: i % t.w, y: Math.floor(i / t.w), got: exp })
      }
    })
  }

  it('literal spot checks: §15.2 RGB565 (red, green, blue, white, grey), §15.3 ETC1 corners, ETC1A4 alpha nibble order, vertical orientation', () => {
    const px = (p: string, w: number, x: number, y: number) => Array.from(readPngFile(path.join(out, p)).rgba.subarray((y * w + x) * 4, (y * w + x) * 4 + 4))
    expect(px('2/3_pm9999_Example.png', 8, 0, 0)).toEqual([255, 0, 0, 255])
    expect(px('2/3_pm9999_Example.png', 8, 1, 0)).toEqual([0, 255, 0, 255])
    expect(px('2/3_pm9999_Example.png', 8, 0, 1)).toEqual([0, 0, 255, 255])
    expect(px('2/3_pm9999_Example.png', 8, 1, 1)).toEqual([255, 255, 255, 255])
    expect(px('2/3_pm9999_Example.png', 8, 2, 0)).toEqual([132, 130, 132, 255]) // storage texel 4
    const etc = built.tex.find((t) => t.format === 'ETC1')!
    const etcPng = `1/${etc.entry}_pm9999_ETC1.png`
    expect(px(etcPng, 16, 0, 0)).toEqual([255, 138, 2, 255])
    expect(px(etcPng, 16, 3, 3)).toEqual([0, 0, 72, 255])
    expect(px(etcPng, 16, 4, 0)).toEqual([161, 95, 62, 255]) // block B to the right of block A
    expect(px(etcPng, 16, 4, 2)).toEqual([157, 74, 74, 255])
    expect(px(etcPng, 16, 8, 0)).toEqual([161, 95, 62, 255]) // tile 1 starts with block B
    const a4 = built.tex.find((t) => t.format === 'ETC1A4')!
    const a4Png = `1/${a4.entry}_pm9999_ETC1A4.png`
    expect(px(a4Png, 8, 0, 0)[3]).toBe(0)
    expect(px(a4Png, 8, 0, 1)[3]).toBe(255)
    expect(px(a4Png, 8, 1, 0)[3]).toBe(0)
    expect(px(a4Png, 8, 4 + 1, 0)[3]).toBe(4 * 17) // nibble x·4 + y of block TR
    expect(px(a4Png, 8, 4, 1)[3]).toBe(1 * 17)
    expect(px(a4Png, 8, 4 + 3, 2)[3]).toBe(14 * 17)
    expect(px(a4Png, 8, 0, 4)[3]).toBe(255)
    expect(px('2/0_pm9999_RGB565_Tex.png', 8, 0, 0)).toEqual([255, 0, 0, 255]) // first stored tile row = top
    expect(px('2/0_pm9999_RGB565_Tex.png', 8, 7, 15)).toEqual([0, 0, 255, 255])
  })

  it('a bad texture → exit 1, no output folder', async () => {
    const m = new Map(built.files)
    const b = m.get('3.bin')!.slice()
    const at = offsetsOf(b)[2]! + 0x6c
    b[at] = 0x99
    m.set('3.bin', b)
    const dir = writeSet('extract-bad', m)
    const o = path.join(tmp, 'extract-bad-out')
    const r = await cli(['gf', 'extract', dir, '--out', o])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('3.bin')
    expect(r.stderr).toMatch(/entry 2/)
    expect(r.stderr).toContain(hexs(at))
    expect(existsSync(o)).toBe(false)
  })
})

// ---- gf replace -----------------------------------------------------------------------------------

describe('gf replace', () => {
  it('with no --texture the output equals the input byte for byte (and the input is untouched)', async () => {
    const before = hashes(setDir)
    const out = path.join(tmp, 'same')
    const r = await cli(['gf', 'replace', setDir, '--out', out])
    expect(r.code, r.stderr).toBe(0)
    expect(hashes(out)).toEqual(before)
    expect(hashes(setDir)).toEqual(before)
  })

  it('missing set files are reported, not fatal; the output holds the files present', async () => {
    const m = new Map(built.files)
    m.delete('0.bin')
    m.delete('6.bin')
    const dir = writeSet('partial-r', m)
    const out = path.join(tmp, 'partial-r-out')
    const r = await cli(['gf', 'replace', dir, '--out', out])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/0\.bin/)
    expect(hashes(out)).toEqual(hashes(dir))
  })

  /** Replaces one texture with a picture and checks the hand-computed pixel bytes and every other byte. */
  async function replaceOne(t: TexCase, pic: Uint8Array, label: string): Promise<Uint8Array> {
    const pngPath = path.join(tmp, `${label}.png`)
    writeFileSync(pngPath, pngBytes(pic, t.w, t.h))
    const out = path.join(tmp, `${label}-out`)
    const before = hashes(setDir)
    const r = await cli(['gf', 'replace', setDir, '--out', out, '--texture', `${t.file}:${t.entry}=${pngPath}`])
    expect(r.code, r.stderr).toBe(0)
    expect(hashes(setDir)).toEqual(before)
    for (const n of Object.keys(before)) if (n !== t.file) expect(sha(path.join(out, n))).toBe(before[n])
    const a = built.files.get(t.file)!
    const b = new Uint8Array(readFileSync(path.join(out, t.file)))
    expect(b.length).toBe(a.length)
    const start = offsetsOf(a)[t.entry]! + 0x80
    const end = start + t.pixels.length
    for (let i = 0; i < a.length; i++) if ((i < start || i >= end) && a[i] !== b[i]) expect(`byte ${hexs(i)} changed`).toBe('')
    return b.subarray(start, end)
  }

  for (const f of FORMATS.filter((x) => !x.startsWith('ETC'))) {
    it(`${f}: only the texture's pixel bytes change, to the hand-computed encoding`, async () => {
      const t = built.tex.find((x) => x.file === '1.bin' && x.format === f)!
      const pic = picture(t.w, t.h, f, 3)
      const got = await replaceOne(t, pic, `rep-${f}`)
      expect(Buffer.from(got).equals(Buffer.from(expectedBytes(f, pic, t.w, t.h)))).toBe(true)
    })
  }

  it('RGBA5551 alpha: 127 → 0, 128 → 1 (round, not truncate)', async () => {
    const t = built.tex.find((x) => x.file === '1.bin' && x.format === 'RGBA5551')!
    const pic = picture(t.w, t.h, 'RGBA5551', 1)
    for (let i = 0; i < t.w * t.h; i++) pic[i * 4 + 3] = i & 1 ? 127 : 128
    const got = await replaceOne(t, pic, 'rep-5551-alpha')
    for (let n = 0; n < t.w * t.h; n++) {
      const [x, y] = texelPos(n, t.w)
      expect(got[n * 2]! & 1).toBe(((y * t.w + x) & 1) ? 0 : 1)
    }
  })

  it('A8 / A4 / HiLo8 keep only their stored channels (colour of the PNG ignored)', async () => {
    const t = built.tex.find((x) => x.file === '3.bin' && x.format === 'A4')!
    const pic = picture(t.w, t.h, 'A4', 9)
    const got = await replaceOne(t, pic, 'rep-a4-3bin')
    expect(Buffer.from(got).equals(Buffer.from(expectedBytes('A4', pic, t.w, t.h)))).toBe(true)
  })

  it('mipmapped texture: level 0 and the mip level are re-encoded (solid colour → exact bytes), length unchanged', async () => {
    const t = built.tex.find((x) => x.name === 'pm9999_Mip')!
    const pic = new Uint8Array(16 * 16 * 4)
    for (let i = 0; i < 256; i++) pic.set([0x10, 0x84, 0xc6, 255], i * 4)
    const got = await replaceOne(t, pic, 'rep-mip')
    expect(got.length).toBe(512 + 128)
    const v = (q(0x10, 5) << 11) | (q(0x84, 6) << 5) | q(0xc6, 5)
    for (let n = 0; n < 320; n++) expect([got[n * 2], got[n * 2 + 1]]).toEqual(u16(v))
  })

  it('pk3DS-style package (minimal header, 4-byte alignment) and a TextureLength rounded up to 0x80', async () => {
    const t = built.tex.find((x) => x.name === 'pm9999_L4pad')!
    const pic = picture(8, 8, 'L4', 4)
    const got = await replaceOne(t, pic, 'rep-l4pad')
    expect(Buffer.from(got.subarray(0, 32)).equals(Buffer.from(expectedBytes('L4', pic, 8, 8)))).toBe(true)
  })

  for (const f of ['ETC1', 'ETC1A4'] as const) {
    it(`${f}: a smooth picture re-encodes to ≥ 30 dB (decoded by the spec's rules), alpha nibbles exact`, async () => {
      // A bigger texture of this format for a meaningful PSNR: 32×32 in a one-texture 1.bin.
      const w = 32, h = 32
      const orig = rawBytes((w * h * BPP[f]) / 8, 5)
      const files = new Map(built.files)
      files.set('1.bin', pkg([gfTexture('big', w, h, f, 1, orig)], { header: 0x80, align: 0x80 }).bytes)
      const dir = writeSet(`etc-${f}`, files)
      const pic = new Uint8Array(w * h * 4)
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pic.set([40 + x * 5, 200 - y * 4, 90 + ((x + y) * 2), (x * 8 + y) & 0xff], (y * w + x) * 4)
      const pngPath = path.join(tmp, `etc-${f}.png`)
      writeFileSync(pngPath, pngBytes(pic, w, h))
      const out = path.join(tmp, `etc-${f}-out`)
      const r = await cli(['gf', 'replace', dir, '--out', out, '--texture', `1.bin:0=${pngPath}`, '--json'])
      expect(r.code, r.stderr).toBe(0)
      const a = files.get('1.bin')!
      const b = new Uint8Array(readFileSync(path.join(out, '1.bin')))
      expect(b.length).toBe(a.length)
      expect(Buffer.from(b.subarray(0, 0x100)).equals(Buffer.from(a.subarray(0, 0x100)))).toBe(true)
      const px = b.subarray(0x100, 0x100 + orig.length)
      // decode by the spec's ETC1 rules (§10.4) written out here
      const dec = decodeEtcBySpec(px, w, h, f === 'ETC1A4')
      let se = 0
      for (let i = 0; i < w * h; i++) for (let c = 0; c < 3; c++) se += (dec[i * 4 + c]! - pic[i * 4 + c]!) ** 2
      const psnr = 10 * Math.log10((255 * 255) / (se / (w * h * 3)))
      expect(psnr).toBeGreaterThanOrEqual(30)
      if (f === 'ETC1A4') for (let i = 0; i < w * h; i++) expect(dec[i * 4 + 3]).toBe(q(pic[i * 4 + 3]!, 4) * 17)
      else for (let i = 0; i < w * h; i++) expect(dec[i * 4 + 3]).toBe(255)
      expect(r.json().replaced?.[0]?.psnr ?? psnr).toBeGreaterThan(29)
    })
  }

  it('a PNG of the wrong size → exit 1 and no output folder', async () => {
    const t = built.tex.find((x) => x.format === 'RGB8')!
    const pngPath = path.join(tmp, 'wrong.png')
    writeFileSync(pngPath, pngBytes(new Uint8Array((t.w + 8) * t.h * 4), t.w + 8, t.h))
    const out = path.join(tmp, 'wrong-out')
    const r = await cli(['gf', 'replace', setDir, '--out', out, '--texture', `1.bin:${t.entry}=${pngPath}`])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/size|×/)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(tmp).filter((n) => n.includes('wrong-out'))).toEqual([])
  })

  it('usage errors → exit 2', async () => {
    const png = path.join(tmp, 'rep-RGB8.png')
    expect((await cli(['gf', 'replace', setDir])).code).toBe(2) // no --out
    expect((await cli(['gf', 'replace', '--out', path.join(tmp, 'u1')])).code).toBe(2) // no SET
    expect((await cli(['gf', 'replace', setDir, '--out', path.join(tmp, 'u2'), '--texture', 'nonsense'])).code).toBe(2)
    expect((await cli(['gf', 'replace', setDir, '--out', path.join(tmp, 'u3'), '--texture', `1.bin=${png}`])).code).toBe(2)
    expect((await cli(['gf', 'replace', setDir, '--out', path.join(tmp, 'u4'), '--bogus'])).code).toBe(2)
    expect((await cli(['gf', 'textures'])).code).toBe(2)
    expect((await cli(['gf', 'extract', setDir])).code).toBe(2)
    for (const u of ['u1', 'u2', 'u3', 'u4']) expect(existsSync(path.join(tmp, u))).toBe(false)
  })

  it('the real binary: exit 0, 1 and 2', async () => {
    expect((await spawnCli(['gf', 'textures', setDir, '--json'])).code).toBe(0)
    expect((await spawnCli(['gf', 'replace', setDir, '--out', path.join(tmp, 'sp'), '--texture', `1.bin:0=${path.join(tmp, 'wrong.png')}`])).code).toBe(1)
    expect((await spawnCli(['gf', 'replace', setDir])).code).toBe(2)
    expect(existsSync(path.join(tmp, 'sp'))).toBe(false)
  })
})

/** ETC1 / ETC1A4 decoder written from §10.4 for the checks above. */
function decodeEtcBySpec(d: Uint8Array, w: number, h: number, alpha: boolean): Uint8Array {
  const T = [[2, 8], [5, 17], [9, 29], [13, 42], [18, 60], [24, 80], [33, 106], [47, 183]]
  const img = new Uint8Array(w * h * 4)
  const bs = alpha ? 16 : 8
  let o = 0
  for (let ty = 0; ty < h; ty += 8) for (let tx = 0; tx < w; tx += 8) for (let k = 0; k < 4; k++) {
    const bx = tx + (k & 1) * 4, by = ty + (k >> 1) * 4
    const A = alpha ? d.subarray(o, o + 8) : null
    const c = d.subarray(o + bs - 8, o + bs)
    o += bs
    const I = (c[0]! | (c[1]! << 8) | (c[2]! << 16) | (c[3]! << 24)) >>> 0
    const [R, G, B, ctl] = [c[7]!, c[6]!, c[5]!, c[4]!]
    const diff = (ctl >> 1) & 1, flip = ctl & 1, t1 = ctl >> 5, t2 = (ctl >> 2) & 7
    let c1: number[], c2: number[]
    if (diff) {
      const base = [R >> 3, G >> 3, B >> 3]
      const dd = [R & 7, G & 7, B & 7].map((v) => (v >= 4 ? v - 8 : v))
      c1 = base.map(e5)
      c2 = base.map((v, i) => e5(Math.min(31, Math.max(0, v + dd[i]!))))
    } else {
      c1 = [R >> 4, G >> 4, B >> 4].map(e4)
      c2 = [R & 15, G & 15, B & 15].map(e4)
    }
    for (let x = 0; x < 4; x++) for (let y = 0; y < 4; y++) {
      const kk = x * 4 + y
      const idx = (((I >>> (16 + kk)) & 1) << 1) | ((I >>> kk) & 1)
      const second = flip ? y >= 2 : x >= 2
      const tab = T[second ? t2 : t1]!
      const m = [tab[0]!, tab[1]!, -tab[0]!, -tab[1]!][idx]!
      const base = second ? c2 : c1
      const p = ((by + y) * w + bx + x) * 4
      img.set(base.map((v) => Math.min(255, Math.max(0, v + m))), p)
      img[p + 3] = A ? ((A[kk >> 1]! >> ((kk & 1) * 4)) & 15) * 17 : 255
    }
  }
  return img
}

// ---- bad input -------------------------------------------------------------------------------------

describe('bad input: exit 1 naming file, entry and offset; no hang; no output', () => {
  function variant(name: string, file: string, patch: (b: Uint8Array, v: DataView) => Uint8Array | void): string {
    const m = new Map(built.files)
    const b = m.get(file)!.slice()
    const res = patch(b, new DataView(b.buffer))
    m.set(file, res ?? b)
    return writeSet(name, m)
  }
  async function allFail(dir: string, file: string, re: RegExp[], cmds: ('info' | 'textures' | 'extract' | 'replace')[] = ['info', 'textures', 'extract', 'replace']) {
    for (const c of cmds) {
      const out = path.join(tmp, `${path.basename(dir)}-${c}-out`)
      const argv = c === 'info' || c === 'textures' ? ['gf', c, dir, '--json'] : ['gf', c, dir, '--out', out]
      const r = await cli(argv)
      expect(r.code, `${c}: ${r.stderr}`).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(file)
      for (const x of re) expect(r.stderr, c).toMatch(x)
      expect(existsSync(out)).toBe(false)
    }
  }

  it('a truncated file (off[N] past the end)', async () => {
    const b = built.files.get('2.bin')!
    const dir = variant('trunc', '2.bin', (x) => x.subarray(0, b.length - 40))
    await allFail(dir, '2.bin', [/entry \d/, /0x[0-9A-F]+/])
  })

  it('a file shorter than the 4-byte header, and one cut inside its offset table', async () => {
    await allFail(variant('tiny', '5.bin', () => Uint8Array.from([0x50, 0x43, 1])), '5.bin', [/0x/])
    await allFail(variant('cut-table', '4.bin', (x) => x.subarray(0, 10)), '4.bin', [/0x/])
  })

  it('an entry offset past the end', async () => {
    const dir = variant('past', '1.bin', (_x, v) => v.setUint32(4 + 4 * 3, 0x00ffffff, true))
    await allFail(dir, '1.bin', [/entry 3/, new RegExp(hexs(4 + 4 * 3))])
  })

  it('offsets not increasing', async () => {
    const dir = variant('order', '4.bin', (x, v) => {
      const o = offsetsOf(x)
      v.setUint32(4 + 4 * 2, o[1]! - 4, true)
    })
    await allFail(dir, '4.bin', [/entry 1/, new RegExp(hexs(4 + 4 * 2))])
  })

  it('an absurd entry count', async () => {
    const dir = variant('count', '6.bin', (_x, v) => v.setUint16(2, 0xffff, true))
    await allFail(dir, '6.bin', [/65535/, /0x/])
  })

  it('the first entry inside the header; a magic that is not two upper-case letters', async () => {
    await allFail(variant('inhead', '7.bin', (_x, v) => v.setUint32(4, 4, true)), '7.bin', [/entry 0/, /0x4/])
    await allFail(variant('magic', '5.bin', (x) => { x[0] = 0x70 }), '5.bin', [/magic/, /0x0/])
  })

  it('texture data running past its entry', async () => {
    const at = offsetsOf(built.files.get('1.bin')!)[4]! + 0x18
    const dir = variant('tlen', '1.bin', (_x, v) => v.setUint32(at, 0x100000, true))
    await allFail(dir, '1.bin', [/entry 4/, new RegExp(hexs(at))], ['textures', 'extract'])
    const png = path.join(tmp, 'tlen.png')
    writeFileSync(png, pngBytes(new Uint8Array(16 * 8 * 4), 16, 8))
    const out = path.join(tmp, 'tlen-rep')
    const r = await cli(['gf', 'replace', dir, '--out', out, '--texture', `1.bin:4=${png}`])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`1\\.bin.*entry 4.*${hexs(at)}`))
    expect(existsSync(out)).toBe(false)
  })

  it('an unknown format id, a zero or non-multiple-of-8 size', async () => {
    const o = offsetsOf(built.files.get('1.bin')!)
    await allFail(variant('fmt', '1.bin', (_x, v) => v.setUint16(o[2]! + 0x6c, 0x55, true)), '1.bin', [/entry 2/, new RegExp(hexs(o[2]! + 0x6c)), /0x55/], ['textures', 'extract'])
    await allFail(variant('w0', '1.bin', (_x, v) => v.setUint16(o[1]! + 0x68, 0, true)), '1.bin', [/entry 1/, new RegExp(hexs(o[1]! + 0x68))], ['textures', 'extract'])
    await allFail(variant('w12', '1.bin', (_x, v) => v.setUint16(o[0]! + 0x6a, 12, true)), '1.bin', [/entry 0/, /0x/], ['textures', 'extract'])
  })

  it('gf info and a replace that does not touch it list a bad texture as a warning (kept opaque, spec §9.2)', async () => {
    const o = offsetsOf(built.files.get('1.bin')!)
    const dir = variant('fmt-info', '1.bin', (_x, v) => v.setUint16(o[2]! + 0x6c, 0x55, true))
    const r = await cli(['gf', 'info', dir, '--json'])
    expect(r.code).toBe(0)
    expect(r.json().files[1].entries[2].kind).toBe('texture')
    expect(r.stderr).toMatch(new RegExp(`1\\.bin.*entry 2.*${hexs(o[2]! + 0x6c)}`))
    const out = path.join(tmp, 'fmt-info-out')
    expect((await cli(['gf', 'replace', dir, '--out', out])).code).toBe(0)
    expect(hashes(out)).toEqual(hashes(dir))
  })

  it('a texture that is not a folder / an empty folder → exit 1', async () => {
    expect((await cli(['gf', 'info', path.join(setDir, '1.bin')])).code).toBe(1)
    mkdirSync(path.join(tmp, 'nothing'))
    expect((await cli(['gf', 'textures', path.join(tmp, 'nothing')])).code).toBe(1)
    expect((await cli(['gf', 'info', path.join(tmp, 'does-not-exist')])).code).toBe(1)
  })
})
