/**
 * The PNG codec registry (png.ts writes with it): a process that has a faster deflate registers it
 * once at its entry (the Node entry points: src-main/node/png-codec.ts); without one, png.ts uses
 * its pure codec. Its own module, free of the pure codec's deflate, so registering loads nothing.
 */

/** zlib stream (RFC 1950) of `data`, and the CRC-32 a PNG chunk ends with (ISO 3309, as zlib's `crc32`). */
export interface PngCodec {
  zlib(data: Uint8Array): Uint8Array
  crc32(data: Uint8Array): number
}

let registered: PngCodec | undefined

/** Makes `c` the codec of every later PNG in this thread (undefined: back to the pure one). */
export function registerPngCodec(c: PngCodec | undefined): void {
  registered = c
}

/** The codec registered in this thread, if any. */
export function registeredPngCodec(): PngCodec | undefined {
  return registered
}
