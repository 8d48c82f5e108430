/**
 * PICA200 texture tiling (spec §10.1): the image is cut into 8×8 tiles stored row by row; the 64
 * texels of a tile are stored in Morton (Z) order, x in the even bits of the storage index.
 * Row 0 of our images is the first stored row (the top of the PNG, spec §10.3).
 */

/** Storage index 0..63 → x within the tile. */
export const MORTON_X = new Uint8Array(64)
/** Storage index 0..63 → y within the tile. */
export const MORTON_Y = new Uint8Array(64)
/** (y·8 + x) → storage index. */
export const MORTON_INDEX = new Uint8Array(64)

for (let i = 0; i < 64; i++) {
  const x = (i & 1) | ((i >> 1) & 2) | ((i >> 2) & 4)
  const y = ((i >> 1) & 1) | ((i >> 2) & 2) | ((i >> 3) & 4)
  MORTON_X[i] = x
  MORTON_Y[i] = y
  MORTON_INDEX[y * 8 + x] = i
}

/**
 * For every texel of the storage stream, the linear (row-major, top row first) pixel index it
 * lands on. `width` and `height` must be multiples of 8.
 */
export function tiledToLinear(width: number, height: number): Uint32Array {
  const map = new Uint32Array(width * height)
  const tilesX = width >> 3
  let n = 0
  for (let ty = 0; ty < height >> 3; ty++) {
    for (let tx = 0; tx < tilesX; tx++) {
      const bx = tx << 3
      const by = ty << 3
      for (let i = 0; i < 64; i++) map[n++] = (by + MORTON_Y[i]!) * width + bx + MORTON_X[i]!
    }
  }
  return map
}

const cache = new Map<number, Uint32Array>()

/** Cached `tiledToLinear` for the common sizes (keeps at most 16 maps). */
export function tileMap(width: number, height: number): Uint32Array {
  const key = width * 65536 + height
  let m = cache.get(key)
  if (!m) {
    if (cache.size >= 16) cache.delete(cache.keys().next().value!)
    m = tiledToLinear(width, height)
    cache.set(key, m)
  }
  return m
}

/** Flips rows (top ↔ bottom) of an RGBA8 image; used where a consumer wants bottom-up rows. */
export function flipRows(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(rgba.length)
  const stride = width * 4
  for (let y = 0; y < height; y++) out.set(rgba.subarray(y * stride, (y + 1) * stride), (height - 1 - y) * stride)
  return out
}
