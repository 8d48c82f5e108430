import { describe, expect, it } from 'vitest'
import { demoScene } from '../../../../src-shared/scene/demo'
import { sceneProblems } from '../../../../src-shared/scene/validate'
import type { MaterialProgram, N64Program, PicaProgram } from '../../../../src-shared/scene/material-program'
import type { Scene } from '../../../../src-shared/scene/types'

// G_CC_MODULATERGBA twice = FC121824 FF33FFFF (materials.md §2.2).
const n64 = (): N64Program => ({
  combine: [0x121824, 0xff33ffff], cycles: 1, otherModeH: 0x2000, otherModeL: 0x0f0a2230, geometryMode: 0x220405,
  prim: [255, 255, 255, 255], primLodFrac: 0, primMinLevel: 0, env: [0, 0, 0, 255], blend: [0, 0, 0, 0], fog: [0, 0, 0, 0],
  textures: [0, null], uvTransforms: [[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0]], filter: 'bilinear3',
})
const pica = (): PicaProgram => ({
  stages: [{ src: [3, 0, 0, 3, 0, 0], op: [0, 0, 0, 0, 0, 0], mode: [1, 1], scale: [0, 0], constant: [0, 0, 0, 255] }],
  bufferColor: [0, 0, 0, 0], bufferUpdate: 0, textures: [0], uvTransforms: [[1, 0, 0, 1, 0, 0]], alphaTest: { func: 6, ref: 128 },
})

function problems(program: MaterialProgram): string[] {
  const s: Scene = demoScene()
  s.materials[0].program = program
  return sceneProblems(s).map((p) => `${p.path}: ${p.message}`)
}

describe('validateScene: material programs', () => {
  it('accepts an N64 and a PICA program', () => {
    expect(problems({ kind: 'n64', n64: n64() })).toEqual([])
    expect(problems({ kind: 'pica', pica: pica() })).toEqual([])
  })

  const cases: [string, () => MaterialProgram, RegExp][] = [
    ['combine w0 with the opcode', () => ({ kind: 'n64', n64: { ...n64(), combine: [0xfc121824, 0xff33ffff] } }), /program\.n64\.combine: must be/],
    ['3 cycles', () => ({ kind: 'n64', n64: { ...n64(), cycles: 3 as 1 } }), /n64\.cycles: must be 1 or 2/],
    ['prim above 255', () => ({ kind: 'n64', n64: { ...n64(), prim: [256, 0, 0, 0] } }), /n64\.prim\[0\]: must be an integer 0\.\.255/],
    ['TEXEL1 texture out of range', () => ({ kind: 'n64', n64: { ...n64(), textures: [0, 99] } }), /n64\.textures\[1\]: texture index 99/],
    ['missing UV matrix', () => ({ kind: 'n64', n64: { ...n64(), uvTransforms: [[1, 0, 0, 1, 0, 0]] as unknown as N64Program['uvTransforms'] } }), /n64\.uvTransforms: must have one UV matrix per texture slot/],
    ['unknown filter', () => ({ kind: 'n64', n64: { ...n64(), filter: 'trilinear' as 'point' } }), /n64\.filter: unknown filter/],
    ['seven stages', () => ({ kind: 'pica', pica: { ...pica(), stages: Array(7).fill(pica().stages[0]) } }), /pica\.stages: must be an array of at most 6/],
    ['combiner 10', () => ({ kind: 'pica', pica: { ...pica(), stages: [{ ...pica().stages[0]!, mode: [10, 1] }] } }), /stages\[0\]\.mode\[0\]: must be an integer 0\.\.9/],
    ['four texture units', () => ({ kind: 'pica', pica: { ...pica(), textures: [0, 0, 0, 0] } }), /pica\.textures: must be an array of at most 3/],
    ['alpha test func 8', () => ({ kind: 'pica', pica: { ...pica(), alphaTest: { func: 8, ref: 0 } } }), /pica\.alphaTest/],
    ['n64 kind without state', () => ({ kind: 'n64' } as unknown as MaterialProgram), /program\.n64: an n64 program needs/],
    ['unknown kind', () => ({ kind: 'gcn' } as unknown as MaterialProgram), /program\.kind: unknown program kind gcn/],
  ]
  it.each(cases)('rejects %s', (_name, make, re) => {
    const found = problems(make())
    expect(found.some((p) => re.test(p) && p.startsWith('materials[0].program')), found.join('\n')).toBe(true)
  })
})

describe('programShaderKey', () => {
  it('ignores uniform inputs (colours, texture indices) and tells structure apart', async () => {
    const { programShaderKey } = await import('../../../../src-shared/scene/material-program')
    const a: MaterialProgram = { kind: 'n64', n64: n64() }
    const b: MaterialProgram = { kind: 'n64', n64: { ...n64(), prim: [1, 2, 3, 4], env: [5, 6, 7, 8], textures: [3, null] } }
    const c: MaterialProgram = { kind: 'n64', n64: { ...n64(), cycles: 2 } }
    expect(programShaderKey(a)).toBe(programShaderKey(b))
    expect(programShaderKey(a)).not.toBe(programShaderKey(c))
    const p: MaterialProgram = { kind: 'pica', pica: pica() }
    const q: MaterialProgram = { kind: 'pica', pica: { ...pica(), stages: [{ ...pica().stages[0]!, constant: [9, 9, 9, 9] }] } }
    expect(programShaderKey(p)).toBe(programShaderKey(q))
    expect(programShaderKey(p)).not.toBe(programShaderKey(a))
  })
})
