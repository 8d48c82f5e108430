import { describe, expect, it } from 'vitest'
import { writeJsonArray } from '../../../../src-main/cli/json-stream'

function streamed(items: unknown[]): { text: string; writes: number } {
  let text = ''
  let writes = 0
  writeJsonArray(
    (function* () {
      yield* items
    })(),
    (t) => {
      text += t
      writes++
    },
  )
  return { text, writes }
}

describe('writeJsonArray', () => {
  it('prints byte for byte what JSON.stringify(array, null, 2) prints', () => {
    const cases: unknown[][] = [
      [],
      [{ id: 1, kind: 'x', name: 'a', source: '/s', parent: null }],
      [{ id: 1, name: 'line\nbreak "quoted" \\ tab\t', nested: { a: [1, 2, { b: [] }], e: {} } }, 'text', 3, null, [], [[1]], { u: 'Pikachú ﾋﾟｶ \u2028' }],
    ]
    for (const c of cases) expect(streamed(c).text).toBe(JSON.stringify(c, null, 2) + '\n')
  })

  it('writes a long list in bounded chunks, still one valid array', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, kind: 'texture', name: `asset_${i}`, source: '/lib/set', parent: i % 7 ? 1 : null }))
    const { text, writes } = streamed(items)
    expect(text).toBe(JSON.stringify(items, null, 2) + '\n')
    expect(writes).toBeGreaterThan(20)
    expect(JSON.parse(text)).toHaveLength(20_000)
  })
})
