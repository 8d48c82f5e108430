import { describe, expect, it } from 'vitest'
import { buildModelGraph } from '../../../../../src-shared/formats/stadium/model-graph'
import type { GeoLayout, GeoNode } from '../../../../../src-shared/formats/stadium/geo-layout'
import { LimitError } from '../../../../../src-shared/binary'

/** A chain of `n` nested group nodes (op 0x09), as layouts calling each other would give. */
function chain(n: number): GeoLayout {
  let node: GeoNode | null = null
  for (let i = n - 1; i >= 0; i--) node = { op: 0x09, at: 0x100 + i * 8, children: node ? [node] : [], flags: 0, callbacks: [] }
  return { offset: 0x100, root: node, opcodes: {}, warnings: [] }
}

describe('buildModelGraph depth guard', () => {
  it('a graph 300 levels deep is a LimitError naming the model file and the node', () => {
    let err: unknown
    try {
      buildModelGraph([chain(300)], 'rom.z64 [model file 3]')
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(LimitError)
    expect((err as Error).message).toMatch(/^rom\.z64 \[model file 3\]: GeoNode 0x[0-9A-F]+: geo graph deeper than 256 levels/)
  })

  it('a graph 200 levels deep is built', () => {
    expect(buildModelGraph([chain(200)], 'rom.z64').bones.length).toBe(0)
  })
})
