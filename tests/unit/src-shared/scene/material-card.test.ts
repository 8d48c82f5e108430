import { describe, expect, it } from 'vitest'
import { materialCardCells, materialCardScene } from '../../../../src-shared/scene/material-card'
import { validateScene } from '../../../../src-shared/scene/validate'
import { evaluateN64Pixel, type Rgba } from '../../../../src-shared/materials/n64-reference'
import { evaluatePicaFragment } from '../../../../src-shared/materials/pica-reference'
import type { Scene } from '../../../../src-shared/scene/types'

/** materials.md §5.1 / §5.2 expected RGB. */
const SPEC: Record<string, [number, number, number]> = {
  N1: [145, 101, 17], N2: [186, 48, 31], N3: [206, 50, 185], N4: [130, 128, 74], N5: [114, 133, 108], N6: [70, 190, 110],
  N7: [119, 81, 49], N8: [121, 123, 38], N9: [206, 77, 8], P1: [100, 100, 13], P2: [50, 121, 204], P3: [187, 108, 108], P4: [10, 20, 30],
}

/** The inputs a quad's centre sees: its texels (flat textures), its vertex colour, its lighting emission. */
function inputs(s: Scene, name: string) {
  const node = s.nodes.find((n) => n.name === name)!
  const prim = s.meshes[node.mesh!]!.primitives[0]!
  const mat = s.materials[prim.material]!
  const texel = (t: number | null | undefined): Rgba | undefined => (t === null || t === undefined ? undefined : [...s.textures[t]!.rgba.subarray(0, 4)] as Rgba)
  const shade = [...prim.colors!.subarray(0, 4)].map((c) => Math.round(c * 255)) as Rgba
  return { mat, texel, shade }
}

describe('material test card', () => {
  const s = materialCardScene()

  it('is a valid scene with one quad per cell, head-on camera in extras', () => {
    expect(() => validateScene(s)).not.toThrow()
    const cells = materialCardCells()
    expect(cells.map((c) => c.id)).toEqual(['N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'N8', 'N9', 'F1', 'G1', 'P1', 'P2', 'P3', 'P4'])
    for (const c of cells) expect(s.nodes.find((n) => n.name === c.id)!.translation).toEqual([c.x, c.y, 0])
    expect(s.extras?.camera).toEqual({ eye: [0, 0, 11], target: [0, 0, 0] })
  })

  it('carries the spec’s inputs: the reference evaluator gives §5’s expected values at every quad', () => {
    for (const id of Object.keys(SPEC)) {
      const { mat, texel, shade } = inputs(s, id)
      const p = mat.program!
      if (p.kind === 'n64') {
        const memNode = s.nodes.find((n) => n.name === `${id} mem`)
        let mem: Rgba | undefined
        if (memNode) {
          const m = inputs(s, `${id} mem`)
          if (m.mat.program?.kind !== 'n64') throw new Error('mem quad without an N64 program')
          mem = [...evaluateN64Pixel(m.mat.program.n64, { texel0: m.texel(m.mat.program.n64.textures[0]), shade: m.shade }).rgb, 255] as Rgba
        }
        const r = evaluateN64Pixel(p.n64, { texel0: texel(p.n64.textures[0]), texel1: texel(p.n64.textures[1]), shade, mem })
        expect(r.rgb, id).toEqual(SPEC[id])
      } else {
        const r = evaluatePicaFragment(p.pica, { primary: shade, fragPrimary: p.pica.lighting?.emission, textures: p.pica.textures.map(texel) })
        expect(r.rgba.slice(0, 3), id).toEqual(SPEC[id])
      }
    }
  })
})
