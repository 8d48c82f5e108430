/** Snap rooms carry the draw calls' RDP state as material programs (materials.md §7). */
import { describe, expect, it } from 'vitest'
import { buildSnapRom } from '../../../../fixtures/snap/build-rom'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { buildStageScene } from '../../../../../src-shared/formats/snap/stage-scene'
import { evaluateN64Pixel } from '../../../../../src-shared/materials/n64-reference'

const rom = buildSnapRom()

describe('Snap stage scene: material programs', () => {
  const { scene } = buildStageScene(parseStage(rom.image, 'river'))
  const room0 = scene.nodes.find((n) => n.name === 'Path room 0')!
  const mat = scene.materials[scene.meshes[room0.mesh!]!.primitives[0]!.material]!

  it('the room material\'s program holds the fixture DL\'s combine, the room othermodes and its texture', () => {
    expect(mat.program?.kind).toBe('n64')
    const p = mat.program!.kind === 'n64' ? mat.program!.n64 : null
    // build-rom.ts's preamble: G_SETCOMBINE 0xFC127E24 0xFFFFF9FC (TEXEL0 × SHADE, alpha SHADE).
    expect(p!.combine).toEqual([0x127e24, 0xfffff9fc])
    // An opaque room (layer 0) starts from othermode L 0x0C192078 (G_RM_PASS | G_RM_AA_ZB_OPA_SURF2, §2.9).
    expect(p!.otherModeL).toBe(0x0c192078)
    expect(p!.textures).toEqual([mat.texture, null])
    expect(p!.uvTransforms[0]).toEqual([1, 0, 0, 1, 0, 0])
  })

  it('every material of the scene has a program and the scene validates with them', () => {
    expect(scene.materials.every((m) => m.program?.kind === 'n64')).toBe(true)
  })

  it('evaluated by the reference evaluator, the program is TEXEL0 × SHADE', () => {
    const p = mat.program!.kind === 'n64' ? mat.program!.n64 : null
    // 200·128/255 = 100.4, 100·255/255 = 100, 50·64/255 = 12.5
    expect(evaluateN64Pixel(p!, { texel0: [200, 100, 50, 255], shade: [128, 255, 64, 255] }).rgb).toEqual([100, 100, 13])
  })
})
