/**
 * The Node GARC writer as the app's "Write mod…" uses it: changes of several sets in one archive,
 * a cancel that leaves nothing behind, the LayeredFS target, and the name probes reading only a
 * few bytes per set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { GarcFile } from '../../../../src-main/domains/gf/garc-file'
import { layeredFsTarget, setChanges, writeGarcFile } from '../../../../src-main/domains/gf/garc-pack'
import { buildModelArchive } from '../../../fixtures/gf/build-garc'
import { oracleLz11, oracleReadGarc } from '../../../oracles/garc-reader'

let dir: string
let arc: string
const a = buildModelArchive(6, { alignment: 32 })
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-garc-pack-'))
  arc = path.join(dir, 'romfs', 'a', '0', '9', '4')
  fs.mkdirSync(path.dirname(arc), { recursive: true })
  fs.writeFileSync(arc, a.bytes)
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const bump = (b: Uint8Array) => {
  const c = b.slice()
  c[c.length - 1] ^= 0xff
  return c
}

describe('writeGarcFile', () => {
  it('changes in two sets in one pass; unchanged files keep their stored bytes', async () => {
    const out = path.join(dir, 'two-sets')
    await GarcFile.with(arc, async (g) => {
      const changes = new Map<number, Uint8Array>()
      // set 0: 1.bin changed (stored LZ11), 0.bin given unchanged; set 2: 5.bin changed (plain)
      for (const [i, b] of await setChanges(g, 0, new Map([['0.bin', a.content[0]!], ['1.bin', bump(a.content[1]!)]]))) changes.set(i, b)
      for (const [i, b] of await setChanges(g, 2, new Map([['5.bin', bump(a.content[23]!)]]))) changes.set(i, b)
      expect([...changes.keys()].sort((x, y) => x - y)).toEqual([1, 23])
      await writeGarcFile(g, changes, out)
    })
    const before = oracleReadGarc(a.bytes)
    const after = oracleReadGarc(new Uint8Array(fs.readFileSync(out)))
    expect(after.alignment).toBe(32)
    expect(oracleLz11(after.entries[1]!.bytes)).toEqual(bump(a.content[1]!))
    expect(after.entries[23]!.bytes).toEqual(bump(a.content[23]!))
    for (let i = 0; i < before.entries.length; i++) if (i !== 1 && i !== 23) expect(Buffer.compare(after.entries[i]!.bytes, before.entries[i]!.bytes), `entry ${i}`).toBe(0)
  })

  it('a cancelled write leaves neither the output nor a temp file', async () => {
    const out = path.join(dir, 'cancelled', 'x')
    const ctl = new AbortController()
    ctl.abort(new Error('cancelled'))
    await expect(GarcFile.with(arc, async (g) => writeGarcFile(g, new Map([[10, new Uint8Array([1])]]), out, { signal: ctl.signal }))).rejects.toThrow('cancelled')
    expect(fs.readdirSync(path.dirname(out))).toEqual([])
  })

  it('the LayeredFS target: the path below romfs, upper-case title', () => {
    expect(layeredFsTarget(arc, '/sd', '00040000001b5000')).toBe(path.join('/sd', 'luma', 'titles', '00040000001B5000', 'romfs', 'a', '0', '9', '4'))
  })

  it('naming a set reads a few bytes, not the set', async () => {
    await GarcFile.with(arc, async (g) => {
      let bytes = 0
      const read = g.read.bind(g)
      const stored = g.stored.bind(g)
      g.read = async (o, l) => ((bytes += l), read(o, l))
      g.stored = async (i, max) => {
        const b = await stored(i, max)
        bytes += b.byteLength
        return b
      }
      expect(await g.setName(1)).toBe('Pikachu')
      const setBytes = g.tables.entries.slice(9, 18).reduce((n, e) => n + e.length, 0)
      expect(bytes).toBeLessThanOrEqual(2048)
      expect(bytes * 10).toBeLessThan(setBytes)
    })
  })
})
