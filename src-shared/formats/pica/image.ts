/** Small RGBA8 image helpers shared by the codecs, the UI and the tests (pure, no DOM). */

/** 2×2 box filter: (w × h) → (w/2 × h/2), rounding to nearest. */
export function downsample2x(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const w = width >> 1, h = height >> 1
  const out = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = ((2 * y) * width + 2 * x) * 4
      const b = a + 4
      const c = a + width * 4
      const d = c + 4
      const o = (y * w + x) * 4
      for (let k = 0; k < 4; k++) out[o + k] = (rgba[a + k]! + rgba[b + k]! + rgba[c + k]! + rgba[d + k]! + 2) >> 2
    }
  }
  return out
}

/** Mean squared error over the chosen channels (0 = R … 3 = A) of two RGBA8 images. */
export function mse(a: Uint8Array, b: Uint8Array, channels: readonly number[] = [0, 1, 2]): number {
  if (a.length !== b.length) throw new RangeError(`mse: images differ in size (${a.length} vs ${b.length} bytes)`)
  let sum = 0
  const n = a.length >> 2
  for (let i = 0; i < n; i++) {
    for (const c of channels) {
      const d = a[i * 4 + c]! - b[i * 4 + c]!
      sum += d * d
    }
  }
  return n ? sum / (n * channels.length) : 0
}

/** Peak signal-to-noise ratio in dB (Infinity for identical images). */
export function psnr(a: Uint8Array, b: Uint8Array, channels: readonly number[] = [0, 1, 2]): number {
  const m = mse(a, b, channels)
  return m === 0 ? Infinity : 10 * Math.log10((255 * 255) / m)
}

/** Per-pixel absolute difference, scaled ×`gain` and clamped, alpha 255 (for a difference view). */
export function differenceImage(a: Uint8Array, b: Uint8Array, gain = 4): Uint8Array {
  const out = new Uint8Array(a.length)
  for (let i = 0; i < a.length; i += 4) {
    for (let k = 0; k < 3; k++) out[i + k] = Math.min(255, Math.abs(a[i + k]! - b[i + k]!) * gain)
    out[i + 3] = 255
  }
  return out
}

/** Bilinear resample, to fit a replacement image to a texture's size (the UI warns when used). */
export function resizeBilinear(rgba: Uint8Array, w: number, h: number, nw: number, nh: number): Uint8Array {
  const out = new Uint8Array(nw * nh * 4)
  for (let y = 0; y < nh; y++) {
    const sy = Math.min(h - 1, Math.max(0, ((y + 0.5) * h) / nh - 0.5))
    const y0 = Math.floor(sy), y1 = Math.min(h - 1, y0 + 1), fy = sy - y0
    for (let x = 0; x < nw; x++) {
      const sx = Math.min(w - 1, Math.max(0, ((x + 0.5) * w) / nw - 0.5))
      const x0 = Math.floor(sx), x1 = Math.min(w - 1, x0 + 1), fx = sx - x0
      for (let k = 0; k < 4; k++) {
        const v =
          (rgba[(y0 * w + x0) * 4 + k]! * (1 - fx) + rgba[(y0 * w + x1) * 4 + k]! * fx) * (1 - fy) +
          (rgba[(y1 * w + x0) * 4 + k]! * (1 - fx) + rgba[(y1 * w + x1) * 4 + k]! * fx) * fy
        out[(y * nw + x) * 4 + k] = Math.round(v)
      }
    }
  }
  return out
}
