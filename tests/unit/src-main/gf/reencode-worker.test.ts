import { afterAll, describe, expect, it } from 'vitest'
import { reencodeOffThread, stopReencodeWorker } from '../../../../src-main/domains/gf/reencode-worker'
import { reencodeTexture } from '../../../../src-shared/formats/gf/replace'
import { encodePicaWithMips } from '../../../../src-shared/formats/pica/texture-codec'
import { encodePicaWithMipsParallel, etc1PoolSize } from '../../../../src-main/domains/gf/etc1-pool'
import { availableParallelism } from 'node:os'

/** A GFTexture entry (spec §9.1) of w×h ETC1 with zero pixels. */
function etc1Entry(w: number, h: number): Uint8Array {
  const len = (w * h) / 2
  const e = new Uint8Array(0x80 + len)
  const v = new DataView(e.buffer)
  v.setUint32(0, 0x15041213, true)
  e.set([...'texture'].map((c) => c.charCodeAt(0)), 8)
  v.setUint32(0x18, len, true)
  e.set([...'Big'].map((c) => c.charCodeAt(0)), 0x28)
  v.setUint16(0x68, w, true)
  v.setUint16(0x6a, h, true)
  v.setUint16(0x6c, 0x2a, true)
  v.setUint16(0x6e, 1, true)
  return e
}

function picture(w: number, h: number): Uint8Array {
  const p = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) p.set([x & 255, y & 255, (x * y) & 255, 255], (y * w + x) * 4)
  return p
}

afterAll(() => stopReencodeWorker())

describe('reencodeOffThread', () => {
  it('gives the same bytes as the inline encoder while the event loop keeps running', async () => {
    const w = 256, h = 256
    const entry = etc1Entry(w, h)
    const rgba = picture(w, h)
    let ticks = 0
    let done = false
    const spin = () => {
      if (done) return
      ticks++
      setImmediate(spin)
    }
    const p = reencodeOffThread(entry, rgba, w, h, { file: '1.bin', entry: 0 }).finally(() => (done = true))
    setImmediate(spin)
    const r = await p
    expect(r.offThread).toBe(true)
    // inline, the encode would run in one synchronous stretch: no setImmediate could run before it ends
    expect(ticks).toBeGreaterThan(1)
    const ref = reencodeTexture(entry, rgba, w, h)
    expect(Buffer.from(r.bytes).equals(Buffer.from(ref.bytes))).toBe(true)
    expect(Buffer.from(r.decoded).equals(Buffer.from(ref.decoded))).toBe(true)
    expect(r.psnr).toBe(ref.psnr)
    // the caller's buffers are not detached
    expect(entry.byteLength).toBe(0x80 + (w * h) / 2)
    expect(rgba.byteLength).toBe(w * h * 4)
  })

  it('errors of the encoder come back as errors with the same message', async () => {
    await expect(reencodeOffThread(etc1Entry(16, 16), picture(8, 8), 8, 8, { file: '1.bin', entry: 3 })).rejects.toThrow(/8×8.*16×16/)
  })

  it('runs one thread per core; ETC1A4 with mips on the pool gives the inline bytes; progress counts tile rows of every level', async () => {
    const w = 256, h = 256
    const rgba = picture(w, h)
    const seen: [number, number][] = []
    const par = await encodePicaWithMipsParallel(rgba, w, h, 'ETC1A4', 3, { etc1Effort: 'fast', onProgress: (d, t) => seen.push([d, t]) })
    expect(etc1PoolSize()).toBe(Math.min(16, availableParallelism()))
    expect(Buffer.from(par).equals(Buffer.from(encodePicaWithMips(rgba, w, h, 'ETC1A4', 3, { etc1Effort: 'fast' })))).toBe(true)
    // 256 + 128 + 64 texel rows = 32 + 16 + 8 tile rows
    expect(seen.every(([, t]) => t === 56)).toBe(true)
    expect(seen.at(-1)![0]).toBe(56)
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0])
    // level 0 went out in more than one range
    expect(seen.filter(([d]) => d < 32).length).toBeGreaterThan(0)
  })

  it('a cancel rejects with code "cancelled" and a later encode still works', async () => {
    const w = 512, h = 512
    const entry = etc1Entry(w, h)
    const rgba = picture(w, h)
    const ac = new AbortController()
    const p = reencodeOffThread(entry, rgba, w, h, {}, { etc1Effort: 'fast', signal: ac.signal, onProgress: () => ac.abort() })
    await expect(p).rejects.toMatchObject({ code: 'cancelled', name: 'CancelledError' })
    const ac2 = new AbortController()
    ac2.abort()
    await expect(reencodeOffThread(entry, rgba, w, h, {}, { signal: ac2.signal })).rejects.toThrow()
    const r = await reencodeOffThread(etc1Entry(64, 64), picture(64, 64), 64, 64, {}, { etc1Effort: 'fast' })
    expect(Buffer.from(r.bytes).equals(Buffer.from(reencodeTexture(etc1Entry(64, 64), picture(64, 64), 64, 64, {}, { etc1Effort: 'fast' }).bytes))).toBe(true)
  })
})
