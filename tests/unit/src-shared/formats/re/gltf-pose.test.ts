import { describe, expect, it } from 'vitest'
import { Document, WebIO } from '@gltf-transform/core'
import { readGltfAnimations } from '../../../../../src-shared/export/gltf-read'
import { mat4FromTRS, mat4ToTRS } from '../../../../../src-shared/scene/math'
import { importAnimation, readMotionFile, eulerToQuat, offGridRate, gridWarning, parentsFirstOrder, type MotionFile } from '../../../../../src-shared/formats/re'
import { motionDifference, type RotationEdit } from '../../../../helpers/re-motion'
import { buildTemplateMotlist } from '../../../../fixtures/re/template'
import { blenderLikeGlb, yTowards, type BoneDir } from '../../../../fixtures/re/blender-like'

/** Largest difference between motion `motion` of `orig` and motion `motIndex` of the imported bytes. */
const motionError = (orig: MotionFile, motion: number, imported: Uint8Array, motIndex = 0, edit?: RotationEdit): number => motionDifference(orig, motion, readMotionFile(imported), motIndex, edit)

describe('mat4ToTRS (hand-computed)', () => {
  it('undoes T·R·S: (1,2,3), 90° about Z, scale 2', () => {
    const s = Math.SQRT1_2
    const m = mat4FromTRS([1, 2, 3], [0, 0, s, s], [2, 2, 2])
    // column 0 = R·(2,0,0) = (0,2,0): the x axis turned onto y and doubled
    expect([m[0], m[1], m[2]].map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([0, 2, 0])
    const trs = mat4ToTRS(m)
    expect(trs.translation).toEqual([1, 2, 3])
    trs.scale.forEach((v) => expect(v).toBeCloseTo(2, 12))
    ;[0, 0, s, s].forEach((v, k) => expect(trs.rotation[k]).toBeCloseTo(v, 12))
  })
  it('a mirrored matrix keeps the mirror in x scale; a half turn about X (trace −1) is found', () => {
    const trs = mat4ToTRS(mat4FromTRS([0, 0, 0], [1, 0, 0, 0], [-1, 3, 0.5]))
    expect(trs.scale.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([-1, 3, 0.5])
    expect(Math.abs(trs.rotation[0])).toBeCloseTo(1, 12)
  })
})

describe('helpers', () => {
  it('parentsFirstOrder puts parents first whatever the node order', () => {
    // 0 ← 2 ← 1, 3 alone
    expect(parentsFirstOrder([2, -1, 1, -1])).toEqual([1, 2, 0, 3])
  })
  it('yTowards turns +Y onto the direction (0, 0, 2): 90° about +X', () => {
    const q = yTowards([0, 0, 2])
    ;[Math.SQRT1_2, 0, 0, Math.SQRT1_2].forEach((v, k) => expect(q[k]).toBeCloseTo(v, 12))
  })
})

describe('re import of a glTF whose bones an exporter re-oriented (Blender "Bone Dir")', () => {
  const file = readMotionFile(buildTemplateMotlist())
  const cases: BoneDir[] = ['temperance', 'blender', 'arbitrary']
  for (const boneDir of cases) {
    it(`${boneDir}: every motion comes back within 1e-4, named and numbered from the template`, async () => {
      const g = await readGltfAnimations(await blenderLikeGlb(file, { boneDir }))
      expect(g.animations.map((a) => a.name)).toEqual(['fixture_idle', 'fixture_idle [1]', 'fixture_wave'])
      const r = importAnimation(file, g, { animations: g.animations.map((a) => a.name) })
      expect(r.motions.map((m) => [m.mot, m.motionId, m.idSource])).toEqual([
        ['fixture_idle', 155, 'template'],
        ['fixture_idle', 160, 'template'],
        ['fixture_wave', 162, 'template'],
      ])
      expect(r.warnings).toEqual([])
      for (let i = 0; i < 3; i++) expect(motionError(file, i, r.bytes, i)).toBeLessThan(1e-4)
    })
  }

  it('an armature node with its own rest rotation is placement, not motion', async () => {
    const g = await readGltfAnimations(await blenderLikeGlb(file, { boneDir: 'temperance', motions: [2], armatureRotation: eulerToQuat([-Math.PI / 2, 0, 0.3]) }))
    const r = importAnimation(file, g)
    expect(motionError(file, 2, r.bytes)).toBeLessThan(1e-4)
  })

  it('an edited bone at one frame comes back at that frame only', async () => {
    const rotation = eulerToQuat([0.4, -0.2, 0.9])
    const edit = { motion: 2, bone: 'L_Forearm', frame: 12, rotation }
    const g = await readGltfAnimations(await blenderLikeGlb(file, { boneDir: 'temperance', motions: [2], edit }))
    const r = importAnimation(file, g)
    expect(motionError(file, 2, r.bytes, 0, edit)).toBeLessThan(1e-4)
    expect(motionError(file, 2, r.bytes)).toBeGreaterThan(0.1)
  })

  it('without names the template knows: --id, then 1, 2, …; --id unused is a warning', async () => {
    const g = await readGltfAnimations(await blenderLikeGlb(file, { boneDir: 'temperance' }))
    g.animations.forEach((a, i) => (a.name = `take${i}`))
    const names = g.animations.map((a) => a.name)
    expect(importAnimation(file, g, { animations: names, motNumber: 7 }).motions.map((m) => m.motionId)).toEqual([7, 1, 2])
    expect(importAnimation(file, g, { animations: names }).motions.map((m) => m.motionId)).toEqual([1, 2, 3])
    const g2 = await readGltfAnimations(await blenderLikeGlb(file, { boneDir: 'temperance', motions: [2] }))
    const r = importAnimation(file, g2, { motNumber: 7 })
    expect(r.motNumber).toBe(162)
    expect(r.warnings.join('\n')).toMatch(/--id 7 is not used: the motion id comes from "fixture_wave" 162 \(the template's motion of that name\)/)
  })
})

describe('key times on another frame grid', () => {
  it('offGridRate: 60 fps keys on a 60 fps target → null; 24 fps keys → 24', () => {
    const at = (rate: number, n: number) => Float32Array.from({ length: n }, (_, k) => k / rate)
    expect(offGridRate([at(60, 31)], 60)).toBeNull()
    expect(offGridRate([at(24, 13)], 60)).toBe(24)
    // 0, 0.5 s lie on both grids: nothing to say
    expect(offGridRate([Float32Array.of(0, 0.5)], 60)).toBeNull()
  })
  it('a 24 fps glTF on a 60 fps template: one warning naming both rates and the Blender settings', async () => {
    const doc = new Document()
    doc.createBuffer()
    const hip = doc.createNode('Hip')
    doc.createScene().addChild(doc.createNode('root').addChild(hip))
    const a = doc.createAnimation('walk')
    const input = doc.createAccessor().setType('SCALAR').setArray(Float32Array.from({ length: 13 }, (_, k) => k / 24))
    const output = doc.createAccessor().setType('VEC4').setArray(new Float32Array(13 * 4).map((_, i) => (i % 4 === 3 ? 1 : 0)))
    const s = doc.createAnimationSampler().setInput(input).setOutput(output)
    a.addSampler(s).addChannel(doc.createAnimationChannel().setTargetNode(hip).setTargetPath('rotation').setSampler(s))
    const g = await readGltfAnimations(await new WebIO().writeBinary(doc))
    const r = importAnimation(readMotionFile(buildTemplateMotlist({ codecs: 'simple' })), g)
    expect(r.frameCount).toBe(30)
    const w = r.warnings.filter((x) => /grid/.test(x))
    expect(w).toEqual([gridWarning('walk', 24, 60)])
    expect(w[0]).toMatch(/24 fps grid, the target plays at 60 fps/)
    expect(w[0]).toMatch(/Frame Rate\) to 60 fps/)
    expect(w[0]).toMatch(/"Always Sample Animations" off/)
  })
})
