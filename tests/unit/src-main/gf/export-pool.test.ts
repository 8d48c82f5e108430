import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { buildPackage, buildSyntheticSet, discPicture, gradientPicture } from '../../../fixtures/gf/build-set'
import { buildGfMotion } from '../../../fixtures/gf/build-motion'
import { buildModelArchive } from '../../../fixtures/gf/build-garc'
import { variedSet } from '../../../fixtures/gf/varied-set'
import { exportAllSets, type BatchOptions } from '../../../../src-main/domains/gf/export-batch'
import { exportAllGarcSets } from '../../../../src-main/domains/gf/export-garc'
import { exportPool, stopExportPool } from '../../../../src-main/domains/gf/export-pool'
import { PngCache } from '../../../../src-main/domains/gf/png-cache'
import { encodeRgbaPng } from '../../../../src-shared/export/png'
import { texturePng } from '../../../../src-shared/export/gltf'
import { useNodePngCodec } from '../../../../src-main/node/png-codec'

let tmp: string
const writeSet = (dir: string, files: Map<string, Uint8Array>) => {
  mkdirSync(dir, { recursive: true })
  for (const [n, b] of files) writeFileSync(path.join(dir, n), b)
}

/** Every file under `dir`: relative path → bytes. */
function tree(dir: string, rel = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = path.join(rel, e.name)
    if (e.isDirectory()) for (const [k, v] of tree(dir, r)) out.set(k, v)
    else out.set(r, readFileSync(path.join(dir, r)))
  }
  return out
}

/** A batch run with its progress calls and warnings, in the order they came. */
async function run(kind: 'folder' | 'garc', input: string, out: string, opts: BatchOptions) {
  const events: string[] = []
  const o = { ...opts, progress: (d: number, t: number, s: string) => events.push(`progress ${d}/${t} ${s}`), warn: (w: string) => events.push(`warn ${w}`) }
  const manifest = kind === 'folder' ? await exportAllSets(input, out, o) : await exportAllGarcSets(input, out, o)
  return { manifest, events, files: tree(out) }
}

beforeAll(() => {
  useNodePngCodec() // as the entry points (CLI, app) do: the one-thread path then writes the workers' PNG bytes
  tmp = mkdtempSync(path.join(tmpdir(), 'mb-export-pool-'))
})
afterAll(async () => {
  await stopExportPool()
  rmSync(tmp, { recursive: true, force: true })
})

describe('PNG cache of the batch', () => {
  it('gives the exporter own PNG bytes (texturePng with the thread codec), at odd sizes too', () => {
    const cache = new PngCache()
    for (const [w, h] of [[1, 1], [3, 5], [16, 8], [130, 9]] as const) {
      for (const rgba of [gradientPicture(w, h, 3), discPicture(w, h, 2), new Uint8Array(w * h * 4)]) {
        const t = { name: 't', width: w, height: h, rgba, wrapS: 'repeat', wrapT: 'repeat' } as const
        expect(Buffer.from(cache.png(rgba, w, h)).equals(Buffer.from(texturePng(t))), `${w}×${h}`).toBe(true)
      }
    }
  })

  it('deflates a texture once: the same pixels at the same size give the same PNG object, another size a new one', () => {
    const cache = new PngCache()
    const a = gradientPicture(16, 8, 1)
    const first = cache.png(a, 16, 8)
    expect(cache.png(a.slice(), 16, 8)).toBe(first)
    const other = cache.png(a, 8, 16) // same bytes, another shape
    expect(other).not.toBe(first)
    expect(Buffer.from(other).equals(Buffer.from(encodeRgbaPng(a, 8, 16)))).toBe(true)
    expect([cache.hits, cache.misses]).toEqual([1, 2])
  })

  it('forgets the oldest PNGs beyond its size bound and encodes them again the same', () => {
    const pics = [1, 2, 3].map((s) => gradientPicture(32, 32, s))
    const one = encodeRgbaPng(pics[0]!, 32, 32).byteLength
    const cache = new PngCache(one * 2)
    const firsts = pics.map((p) => cache.png(p, 32, 32))
    const again = cache.png(pics[0]!, 32, 32)
    expect(again).not.toBe(firsts[0])
    expect(Buffer.from(again).equals(Buffer.from(firsts[0]!))).toBe(true)
  })
})

describe('gf export-all on the worker pool', () => {
  it('writes the same files, byte for byte, the same manifest, progress and warnings in the same order as one thread', async () => {
    const dump = path.join(tmp, 'dump')
    // sets with textures of their own, sets sharing textures (seed 1 twice, the plain set twice), a broken set, a nested set
    const seeds = [1, 2, 0, 1, 3, 0, 4, 5, 2]
    seeds.forEach((seed, i) => writeSet(path.join(dump, i % 2 ? 'odd' : 'even', `s${i}`), variedSet(seed)))
    const broken = buildSyntheticSet(1).files
    broken.set('6.bin', buildPackage([buildGfMotion({ frameCount: 10, skeletal: [{ bone: 'Waist', curves: { transX: { keys: [[0, 0, 0]], count: 0x7fffffff } } }] })], { align: 4 }))
    writeSet(path.join(dump, 'even', 's4b'), broken)
    writeSet(path.join(dump, 'odd', 'empty'), new Map([['0.bin', new Uint8Array(3)]]))
    // a member the pool's thread cannot read (a folder named 3.bin): the same error as the main thread's read
    writeSet(path.join(dump, 'odd', 'unreadable'), new Map([...variedSet(6)].filter(([n]) => n !== '3.bin')))
    mkdirSync(path.join(dump, 'odd', 'unreadable', '3.bin'))
    const one = await run('folder', dump, path.join(tmp, 'one'), { inThread: true })
    const pool = await run('folder', dump, path.join(tmp, 'pool'), {})
    expect(exportPool().started).toBeGreaterThan(0) // the pool did the work
    expect(pool.manifest).toEqual(one.manifest)
    expect(pool.events).toEqual(one.events)
    expect([...pool.files.keys()]).toEqual([...one.files.keys()])
    for (const [k, v] of one.files) expect(pool.files.get(k)!.equals(v), k).toBe(true)
    // what was exported: every good set, the two broken ones listed with their errors
    expect(pool.files.size).toBe(seeds.length + 1)
    expect(pool.manifest.filter((m) => m.error).map((m) => m.set)).toEqual(['even/s4b', 'odd/empty', 'odd/unreadable'])
    expect(pool.manifest.find((m) => m.set === 'even/s4b')!.error).toMatch(/^even\/s4b\/6\.bin: entry 0 GFMotion/)
    expect(pool.manifest.find((m) => m.set === 'odd/unreadable')!.error).toBe(`odd/unreadable: ${path.join(dump, 'odd', 'unreadable', '3.bin')}: is a folder, not a file`)
    expect(pool.events.filter((e) => e.startsWith('progress')).map((e) => e.split(' ')[1])).toEqual([...Array(seeds.length + 4).keys()].map((i) => `${i}/${seeds.length + 3}`))
  })

  it('exports a GARC on the pool as on one thread, byte for byte', async () => {
    const arc = path.join(tmp, 'a094')
    writeFileSync(arc, buildModelArchive(6).bytes)
    const one = await run('garc', arc, path.join(tmp, 'garc-one'), { inThread: true })
    const pool = await run('garc', arc, path.join(tmp, 'garc-pool'), {})
    expect(pool.manifest).toEqual(one.manifest)
    expect(pool.events).toEqual(one.events)
    expect([...pool.files.keys()]).toEqual([...one.files.keys()])
    for (const [k, v] of one.files) expect(pool.files.get(k)!.equals(v), k).toBe(true)
    expect(pool.manifest.map((m) => [m.glb, m.error === undefined])).toEqual([['0000.glb', true], ['0001.glb', true], ['0002.glb', true], [null, false]])
  })

  it('a cancel stops the batch at once: rejects with the reason, no output folder, no temporary folder beside it', async () => {
    const dump = path.join(tmp, 'dump-cancel')
    for (let i = 0; i < 12; i++) writeSet(path.join(dump, `s${String(i).padStart(2, '0')}`), variedSet(i + 10))
    const parent = path.join(tmp, 'cancel-parent')
    mkdirSync(parent)
    const ac = new AbortController()
    const seen: number[] = []
    const batch = exportAllSets(dump, path.join(parent, 'out'), { signal: ac.signal, progress: (d) => (seen.push(d), d === 2 && ac.abort(new Error('cancelled by the user'))) })
    await expect(batch).rejects.toThrow('cancelled by the user')
    expect(seen).toEqual([0, 1, 2])
    expect(readdirSync(parent)).toEqual([])
    // the pool is free for the next batch (the cancelled batch's queued sets were dropped)
    const after = await exportAllSets(dump, path.join(parent, 'again'), {})
    expect(after.map((m) => m.glb)).toEqual([...Array(12).keys()].map((i) => `s${String(i).padStart(2, '0')}.glb`))
    expect(existsSync(path.join(parent, 'again', 'manifest.json'))).toBe(true)
  })
})
