/**
 * GameFileCache: one open per file while its size, mtime and inode stay; LRU eviction by bytes;
 * two opens at once share one; a failed open is not kept. The opens here read the real files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { GameFileCache } from '../../../../src-main/node/game-file-cache'

let dir: string
const files: Record<string, string> = {}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-file-cache-'))
  for (const [name, size] of [['a', 40], ['b', 40], ['c', 40], ['d', 41], ['big', 200]] as const) {
    files[name] = path.join(dir, name)
    fs.writeFileSync(files[name]!, new Uint8Array(size).fill(name.charCodeAt(0)))
  }
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function reader() {
  const opened: string[] = []
  const get = (cache: GameFileCache, name: string) =>
    cache.get(files[name]!, 'bytes', async () => {
      opened.push(name)
      const value = new Uint8Array(fs.readFileSync(files[name]!))
      return { value, bytes: value.byteLength }
    })
  return { opened, get }
}

describe('GameFileCache', () => {
  it('opens a file once while unchanged, again when its mtime or size changes', async () => {
    const cache = new GameFileCache(1000)
    const { opened, get } = reader()
    const first = await get(cache, 'a')
    expect(await get(cache, 'a')).toBe(first)
    expect(opened).toEqual(['a'])
    const st = fs.statSync(files.a!)
    fs.utimesSync(files.a!, st.atime, new Date(st.mtimeMs + 3000))
    await get(cache, 'a')
    expect(opened).toEqual(['a', 'a'])
    fs.appendFileSync(files.a!, 'x') // size 41
    expect((await get(cache, 'a')).length).toBe(41)
    expect(opened).toEqual(['a', 'a', 'a'])
  })

  it('keeps at most maxBytes, dropping the least recently used first', async () => {
    const cache = new GameFileCache(100) // two 40-byte files fit, three do not
    const { opened, get } = reader()
    await get(cache, 'b')
    await get(cache, 'c')
    await get(cache, 'b') // b is now the most recently used
    expect(cache.heldBytes).toBe(80)
    await get(cache, 'd') // 40 + 40 + 41 > 100: c goes
    expect(cache.heldBytes).toBe(81)
    opened.length = 0
    await get(cache, 'b')
    await get(cache, 'c')
    expect(opened).toEqual(['c'])
    // a value larger than the whole budget is returned but not kept
    await get(cache, 'big')
    await get(cache, 'big')
    expect(opened).toEqual(['c', 'big', 'big'])
    expect(cache.heldBytes).toBeLessThanOrEqual(100)
  })

  it('shares one open between callers at once, and keeps no failure', async () => {
    const cache = new GameFileCache(1000)
    const { opened, get } = reader()
    const [x, y] = await Promise.all([get(cache, 'b'), get(cache, 'b')])
    expect(x).toBe(y)
    expect(opened).toEqual(['b'])
    let tries = 0
    const failing = () => cache.get(files.c!, 'bad', async () => {
      tries++
      throw new Error('bad bytes')
    })
    await expect(failing()).rejects.toThrow('bad bytes')
    await expect(failing()).rejects.toThrow('bad bytes')
    expect(tries).toBe(2)
    // a missing file is left to the open to report, and nothing is kept
    await expect(cache.get(path.join(dir, 'gone'), 'bytes', async () => {
      throw new Error('gone: file not found')
    })).rejects.toThrow('file not found')
    expect(cache.heldBytes).toBe(40)
  })
})
