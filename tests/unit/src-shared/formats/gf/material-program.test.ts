/** GF materials get the PICA program of their fragment shader's TexEnv stages (materials.md §3, §7). */
import { describe, expect, it } from 'vitest'
import { buildGfScene } from '../../../../../src-shared/formats/gf/scene'
import { parseGfSet } from '../../../../../src-shared/formats/gf/gf-set'
import { readGfShader } from '../../../../../src-shared/formats/gf/shader'
import { unitUVMatrix } from '../../../../../src-shared/formats/gf/material-program'
import { evaluatePicaFragment } from '../../../../../src-shared/materials/pica-reference'
import { buildGfShader, buildPackage, buildShaderStub, buildSyntheticSet } from '../../../../fixtures/gf/build-set'
import { buildGfModel } from '../../../../fixtures/gf/build-model'
import { MATERIALS, highModelSpec, lowModelSpec } from '../../../../fixtures/gf/skinned'
import type { Cmd } from '../../../../fixtures/gf/pica-words'

// Registers (gf-packages.md §8): stage 0 at 0xC0, stage 1 at 0xC8; +0 source, +1 operand, +2 combiner, +3 colour, +4 scale.
// P3 of materials.md §5.2: s0 Modulate(Texture0 = 3, FragPrimary = 1) ×2; s1 Add(Previous = 15, Constant = 14).
const P3: Cmd[] = [
  { reg: 0xc0, params: [0x00030013, 0, 0x00000001, 0xff0000ff, 0x00000001], seq: true },
  { reg: 0xc8, params: [0x000f00ef, 0, 0x00000002, 0, 0], seq: true },
  { reg: 0xe0, params: [0x00000100], mask: 0x2 },
  { reg: 0xfd, params: [0x4030201a] },
]

function set(shaderMagic?: number) {
  const files = buildSyntheticSet().files
  const spec = highModelSpec()
  spec.materials = [
    // stage 1 uses constant 2 = (30, 30, 30); the second unit samples Eye1 at twice the scale
    { ...MATERIALS[0]!, units: [{ texture: 'pm0999_00_BodyA1' }, { texture: 'pm0999_00_Eye1', scale: [2, 2] }], constants: [[0, 0, 0, 0], [1, 1, 1, 1], [30, 30, 30, 255]], constantAssignments: [0, 2, 0, 0, 0, 0] },
    ...MATERIALS.slice(1),
  ]
  const shaders = buildPackage([buildGfShader('BodyMat_FS', P3, shaderMagic), buildShaderStub('PokeFire')], { align: 16, headerSize: 16 })
  files.set('0.bin', buildPackage([buildGfModel(spec), buildGfModel(lowModelSpec()), shaders], { headerSize: 0x20, align: 16 }))
  return parseGfSet(files)
}

describe('GF material programs', () => {
  it('reads a GFShader\'s TexEnv registers', () => {
    const s = readGfShader(buildGfShader('X', P3))
    expect(s.name).toBe('X')
    expect(s.stages[0]).toEqual({ source: 0x00030013, operand: 0, combiner: 1, color: 0xff0000ff, scale: 1 })
    expect(s.stages[2]).toBeUndefined()
    expect(s.updateBuffer).toBe(0x100)
    expect(s.bufferColor).toBe(0x4030201a)
  })

  it('a material whose fragment shader has stages gets a pica program; the others keep the simple material', () => {
    const { scene, warnings } = buildGfScene(set())
    expect(warnings.filter((w) => /shader|TexEnv/i.test(w))).toEqual([])
    const body = scene.materials.find((m) => m.name === 'BodyMat')!
    expect(body.program?.kind).toBe('pica')
    const p = body.program!.kind === 'pica' ? body.program!.pica : null
    expect(p!.stages.length).toBe(2) // trailing pass-through stages dropped
    expect(p!.stages[0]).toEqual({ src: [3, 1, 0, 3, 0, 0], op: [0, 0, 0, 0, 0, 0], mode: [1, 0], scale: [1, 0], constant: [0, 0, 0, 0] })
    expect(p!.stages[1]!.src).toEqual([15, 14, 0, 15, 0, 0])
    expect(p!.stages[1]!.constant).toEqual([30, 30, 30, 255]) // material constant 2 through the assignment
    expect(p!.bufferColor).toEqual([0x1a, 0x20, 0x30, 0x40])
    expect(p!.bufferUpdate).toBe(0x100)
    expect(p!.textures[0]).toBe(body.texture)
    expect(scene.textures[p!.textures[1]!]!.name).toBe('1_2_pm0999_00_Eye1')
    // unit 1 at scale 2 over unit 0's identity: v_n1 = 1 − 2·(1 − v_n0) = 2·v_n0 − 1
    expect(p!.uvTransforms[1]).toEqual([2, 0, 0, 2, 0, -1])
    expect(scene.materials.find((m) => m.name === 'TailMat')!.program).toBeUndefined()
    // the shiny copy draws the same stages with its own texture
    const shiny = scene.materials.find((m) => m.name === 'BodyMat (shiny)')!
    expect(shiny.program?.kind === 'pica' && shiny.program.pica.textures[0]).toBe(shiny.texture)
  })

  it('a shader stamped with the GFTexture signature (0x15041213) is classified as a shader, not a texture, and still read', () => {
    const s = set(0x15041213)
    const pkg = s.files.find((f) => f.file === '0.bin')!.entries[2]!
    expect(pkg.children![0]).toMatchObject({ kind: 'unknown', note: 'shader' })
    const body = buildGfScene(s).scene.materials.find((m) => m.name === 'BodyMat')!
    expect(body.program?.kind).toBe('pica')
  })

  it('evaluated by the reference evaluator, the program reproduces vector P3', () => {
    const body = buildGfScene(set()).scene.materials.find((m) => m.name === 'BodyMat')!
    const p = body.program!.kind === 'pica' ? body.program!.pica : null
    expect(evaluatePicaFragment(p!, { fragPrimary: [100, 100, 200, 255], textures: [[200, 100, 50, 255]] }).rgba.slice(0, 3)).toEqual([187, 108, 108])
  })

  it('a shader whose command list runs past its entry is a warning naming the file, entry and offset; the material keeps its simple look', () => {
    const files = buildSyntheticSet().files
    const bad = buildGfShader('BodyMat_FS', P3)
    new DataView(bad.buffer, bad.byteOffset).setUint32(0x70, 0x4000, true) // command bytes far beyond the entry
    const shaders = buildPackage([bad], { align: 16, headerSize: 16 })
    files.set('0.bin', buildPackage([buildGfModel(highModelSpec()), buildGfModel(lowModelSpec()), shaders], { headerSize: 0x20, align: 16 }))
    const { scene, warnings } = buildGfScene(parseGfSet(files))
    expect(warnings.some((w) => /^0\.bin: entry 2\.0 GFShader.* at 0x[0-9A-F]+: /.test(w)), warnings.join('\n')).toBe(true)
    expect(scene.materials.every((m) => m.program === undefined)).toBe(true)
  })

  it('unit UV matrices compose unit 0\'s inverse: equal units give the identity', () => {
    const u = { texture: 't', unit: 0, mapping: 0, scale: [1.5, 0.5] as [number, number], rotation: 0.3, translation: [0.1, 0.2] as [number, number], wrapU: 'repeat' as const, wrapV: 'repeat' as const, magFilter: 0, minFilter: 0, minLod: 0 }
    unitUVMatrix(u, u).forEach((x, i) => expect(x).toBeCloseTo([1, 0, 0, 1, 0, 0][i]!, 9))
  })
})
