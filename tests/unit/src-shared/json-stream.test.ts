/**
 * jsonChunks against JSON.stringify(…, null, 1) itself (the bytes the export wrote before it was
 * streamed), and against texts written out by hand.
 */
import { describe, expect, it } from 'vitest'
import { jsonChunks, streamedArray, streamedObject } from '../../../src-shared/json-stream'

const text = (v: unknown) => [...jsonChunks(v)].join('')
const plain = (v: unknown) => JSON.stringify(v, null, 1)

/** The same data streamed at every level: objects member by member, arrays item by item. */
function streamAll(v: unknown): unknown {
  if (Array.isArray(v)) return streamedArray(v.map(streamAll))
  if (v && typeof v === 'object') return streamedObject(Object.entries(v).map(([k, x]) => [k, streamAll(x)] as const))
  return v
}

const EDGE: Record<string, unknown> = {
  empty: [],
  emptyObject: {},
  nested: [[], {}, [[]], { a: {} }],
  numbers: [0, -0, 1e21, 1e-7, -1.5, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity, 2 ** 53 + 1],
  strings: ['', 'a"b', 'back\\slash', 'line\nbreak\r\ttab', '\u2028\u2029', '\u0000\u001f', 'Nidoran♀ ♂', 'lone \ud800 surrogate', 'é😀', '</script>'],
  keys: { '': 1, 'a"b': 2, '\n': 3, 'é': 4, '1': 5, '0': 6 },
  holes: [undefined, () => 1, Symbol('s'), null],
  dropped: { u: undefined, f: () => 1, s: Symbol('s'), kept: null },
  onlyDropped: { u: undefined },
  booleans: [true, false],
  deep: { a: [{ b: [{ c: [1, [2, { d: 'e' }]] }] }] },
}

describe('jsonChunks', () => {
  it('prints small documents as written by hand', () => {
    expect(text(streamedObject([['a', streamedArray([1, { b: [2] }])]]))).toBe('{\n "a": [\n  1,\n  {\n   "b": [\n    2\n   ]\n  }\n ]\n}')
    expect(text(streamedArray([]))).toBe('[]')
    expect(text(streamedObject([]))).toBe('{}')
    expect(text(streamedObject([['x', streamedArray([])], ['y', {}]]))).toBe('{\n "x": [],\n "y": {}\n}')
    expect(text(streamedArray([undefined, -0, NaN, 1e21]))).toBe('[\n null,\n 0,\n null,\n 1e+21\n]')
    expect(text(streamedObject([['u', undefined], ['s', 'a\nb']]))).toBe('{\n "s": "a\\nb"\n}')
  })

  for (const [name, v] of Object.entries(EDGE)) {
    it(`matches JSON.stringify: ${name}`, () => {
      expect(text(streamAll(v))).toBe(plain(v))
      // streamed at the top only, the rest printed by JSON.stringify at its depth
      if (Array.isArray(v)) expect(text(streamedArray(v))).toBe(plain(v))
      else if (v && typeof v === 'object') expect(text(streamedObject(Object.entries(v)))).toBe(plain(v))
    })
  }

  it('matches JSON.stringify on the whole edge table, streamed at every depth', () => {
    expect(text(streamAll(EDGE))).toBe(plain(EDGE))
    expect(text(streamedObject(Object.entries(EDGE)))).toBe(plain(EDGE))
  })

  it('matches JSON.stringify on random documents streamed at random levels', () => {
    let seed = 12345
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    const atoms = [0, -0, 7, -3.25, 1e21, NaN, 'x', 'q"\n', '♀', true, false, null, undefined]
    const gen = (d: number): unknown => {
      const r = rnd()
      if (d > 5 || r < 0.4) return atoms[Math.floor(rnd() * atoms.length)]
      const n = Math.floor(rnd() * 4)
      if (r < 0.7) return Array.from({ length: n }, () => gen(d + 1))
      return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, gen(d + 1)]))
    }
    const streamSome = (v: unknown): unknown => {
      if (rnd() < 0.5) return v
      if (Array.isArray(v)) return streamedArray(v.map(streamSome))
      if (v && typeof v === 'object') return streamedObject(Object.entries(v).map(([k, x]) => [k, streamSome(x)] as const))
      return v
    }
    for (let i = 0; i < 300; i++) {
      const v = gen(0) ?? null
      expect(text(streamSome(v)), JSON.stringify(v)).toBe(plain(v))
    }
  })

  it('pulls items only as their text is asked for (one member at a time)', () => {
    let made = 0
    function* items() {
      for (let i = 0; i < 1000; i++) {
        made++
        yield { i, name: `item ${i}` }
      }
    }
    const it = jsonChunks(streamedObject([['head', 1], ['items', streamedArray(items())]]))
    let seen = ''
    while (!seen.includes('"item 2"')) seen += it.next().value
    expect(made).toBe(3)
    const rest = [...it].join('')
    expect(made).toBe(1000)
    expect(seen + rest).toBe(plain({ head: 1, items: Array.from({ length: 1000 }, (_, i) => ({ i, name: `item ${i}` })) }))
  })

  it('refuses a top-level value with no JSON text', () => {
    expect(() => text(undefined)).toThrow(/no JSON text/)
  })
})
