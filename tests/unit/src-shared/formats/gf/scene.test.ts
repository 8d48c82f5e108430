import { describe, expect, test } from 'vitest'
import { parseGfSet } from '../../../../../src-shared/formats/gf/gf-set'
import { buildGfScene } from '../../../../../src-shared/formats/gf/scene'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { sampleChannel } from '../../../../../src-shared/scene/sample'
import { mat4Multiply, transformPoint, worldMatrices } from '../../../../../src-shared/scene/math'
import { buildPackage, buildSyntheticSet } from '../../../../fixtures/gf/build-set'
import { buildGfMotion } from '../../../../fixtures/gf/build-motion'
import { buildGfModel } from '../../../../fixtures/gf/build-model'
import { highModelSpec, lowModelSpec } from '../../../../fixtures/gf/skinned'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { glbJson } from '../../../../helpers/glb'

const set = () => parseGfSet(buildSyntheticSet(1).files)

describe('GF set → neutral scene', () => {
  const r = buildGfScene(set())
  const s = r.scene

  test('joints are the bones in bone order; mesh nodes follow, skinned with skin 0', () => {
    validateScene(s)
    expect(s.nodes.map((n) => [n.name, n.parent])).toEqual([['Origin', -1], ['Waist', 0], ['Head', 1], ['Tail', 1], ['Body', -1], ['Eye', -1]])
    expect(s.skins[0]!.joints).toEqual([0, 1, 2, 3])
    expect([s.nodes[4]!.mesh, s.nodes[4]!.skin, s.nodes[5]!.mesh]).toEqual([0, 0, 1])
  })

  test('inverse binds undo the bind pose: joint world · inverse bind = identity', () => {
    const w = worldMatrices(s.nodes)
    for (let j = 0; j < 4; j++) {
      const m = mat4Multiply(w.subarray(j * 16, j * 16 + 16), s.skins[0]!.inverseBindMatrices.subarray(j * 16, j * 16 + 16))
      Array.from(m).forEach((x, i) => expect(x).toBeCloseTo([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1][i]!, 5))
    }
  })

  test('palette slots become bone indices; UVs carry unit 0 transform and V flips', () => {
    const body = s.meshes[0]!.primitives[0]!
    expect(body.colors).toBeUndefined() // layout A's colour is a fixed attribute
    expect(Array.from(body.joints!.subarray(8, 12))).toEqual([1, 2, 0, 0]) // slots 0,1 of palette [1, 2]
    expect(Array.from(body.joints!.subarray(12, 16))).toEqual([2, 0, 0, 0])
    const eye = s.meshes[1]!.primitives[0]!
    expect(eye.uvs![2]).toBeCloseTo(0.75, 5) // u = 1, Tu = 0.25 → 0.75
    expect(eye.uvs![3]).toBeCloseTo(1, 5) // v = 0 → 1 − 0
    expect(Array.from(eye.joints!.subarray(0, 4))).toEqual([2, 0, 0, 0])
  })

  test('materials: textures bound by name, alpha and cull state, shiny variant from 2.bin', () => {
    const names = s.materials.map((m) => m.name)
    expect(names).toEqual(['BodyMat', 'TailMat', 'EyeMat', 'BodyMat (shiny)', 'TailMat (shiny)', 'EyeMat (shiny)'])
    expect(s.materials[2]).toMatchObject({ alphaMode: 'MASK', doubleSided: true })
    expect(s.materials[2]!.alphaCutoff).toBeCloseTo(128 / 255, 6)
    expect(s.materials[1]!.alphaMode).toBe('BLEND')
    expect(s.textures[s.materials[0]!.texture!]!.name).toBe('1_0_pm0999_00_BodyA1')
    expect(s.textures[s.materials[3]!.texture!]!.name).toBe('2_0_pm0999_00_BodyA1')
    expect(s.textures[s.materials[2]!.texture!]).toMatchObject({ wrapS: 'clamp', wrapT: 'clamp' })
    expect(s.variants).toEqual([{ name: 'normal', replace: [] }, { name: 'shiny', replace: [[0, 3], [1, 4], [2, 5]] }])
  })

  test('every motion is a clip `<file>/<entry>` at 30 fps reaching FC/30', () => {
    expect(s.animations.map((a) => [a.name, a.duration, a.frameRate, a.loop])).toEqual([
      ['4.bin/0', 20 / 30, 30, true], ['4.bin/2', 10 / 30, 30, true], ['5.bin/0', 10, 30, false], ['6.bin/0', 8 / 30, 30, true], ['6.bin/1', 10 / 30, 30, true], ['7.bin/0', 4 / 30, 30, false],
    ])
    const idle = s.animations[0]!
    const ty = idle.channels.find((c) => c.node === 1 && c.path === 'translation')!
    expect(ty.interpolation).toBe('LINEAR')
    expect(sampleChannel(ty, 10 / 30)[1]).toBeCloseTo(11, 5)
    expect(sampleChannel(ty, 20 / 30)[1]).toBeCloseTo(12, 5)
    expect(r.warnings).toContain("4.bin: entry 0 GFMotion names bone 'Ghost', which the model lacks; its track is skipped")
    expect(r.motions[0]).toEqual({ file: '4.bin', entry: 0, label: 'Idle', frames: 20, animation: 0 })
  })

  test('visibility as a step track on the mesh node; UV animation as offset tracks for normal and shiny', () => {
    const idle = s.animations[0]!
    expect(idle.visibility).toHaveLength(1)
    expect(idle.visibility![0]!.node).toBe(5)
    expect(Array.from(idle.visibility![0]!.times)).toEqual([0, Math.fround(10 / 30)])
    expect(Array.from(idle.visibility![0]!.visible)).toEqual([1, 0])
    expect(idle.uvTracks!.map((t) => t.material)).toEqual([2, 5])
    // Frame 20: Tu animated to 0.5 from a rest of 0.25 → offset −0.25 on the baked U; frame 0: Tu 0 → +0.25.
    const v = idle.uvTracks![0]!.values
    expect(Array.from(v.subarray(80, 84)).map((x) => +x.toFixed(5))).toEqual([-0.25, 0, 1, 1])
    expect(Array.from(v.subarray(0, 4)).map((x) => +x.toFixed(5))).toEqual([0.25, 0, 1, 1])
    // Check against the Maya formula: baked U 0.75 (u = 1) → u' at frame 20 = 1 − 0.5 = 0.5
    expect(0.75 * v[82]! + v[80]!).toBeCloseTo(0.5, 6)
  })

  test('the skinned bind pose puts the vertices where the file has them', () => {
    const w = worldMatrices(s.nodes)
    const ibm = s.skins[0]!.inverseBindMatrices
    const p = s.meshes[0]!.primitives[0]!
    const v = [p.positions[6]!, p.positions[7]!, p.positions[8]!]
    let acc = [0, 0, 0]
    for (let c = 0; c < 4; c++) {
      const wgt = p.weights![8 + c]!
      if (!wgt) continue
      const j = p.joints![8 + c]!
      const q = transformPoint(mat4Multiply(w.subarray(j * 16, j * 16 + 16), ibm.subarray(j * 16, j * 16 + 16)), v)
      acc = acc.map((x, k) => x + wgt * q[k]!)
    }
    acc.forEach((x, k) => expect(x).toBeCloseTo(v[k]!, 4))
  })

  test('low LOD; no motions; a pending texture replaces the stored pixels', () => {
    const low = buildGfScene(set(), { lod: 'low', motions: false, textureOverride: (f, e) => (f === '1.bin' && e === 0 ? new Uint8Array(64 * 64 * 4).fill(7) : undefined) })
    expect(low.scene.meshes.map((m) => m.name)).toEqual(['BodyLow'])
    expect(low.scene.animations).toEqual([])
    expect(low.scene.textures[low.scene.materials[0]!.texture!]!.rgba[0]).toBe(7)
  })

  test('an unreadable motion: listed broken (app) or thrown (strict export)', () => {
    const files = buildSyntheticSet(1).files
    const broken = buildGfMotion({ frameCount: 10, skeletal: [{ bone: 'Waist', curves: { transX: { keys: [[0, 0, 0]], count: 0x7fffffff } } }] })
    files.set('6.bin', buildPackage([broken], { align: 4 }))
    const r2 = buildGfScene(parseGfSet(files))
    expect(r2.motions.find((m) => m.file === '6.bin')).toMatchObject({ entry: 0, label: 'Idle', error: expect.stringMatching(/^6\.bin: entry 0 GFMotion skeletal section/) })
    expect(r2.scene.animations.map((a) => a.name)).not.toContain('6.bin/0')
    expect(() => buildGfScene(parseGfSet(files), { strictMotions: true })).toThrow(/^6\.bin: entry 0 GFMotion skeletal section at 0x[0-9A-F]+: bone 0 'Waist' transX keys/)
  })

  test('texture units 1 and 2 reach the scene and the glb as images named by the material extras', async () => {
    // BodyMat with three units: BodyA1 (1.bin #0), Mouth1 (1.bin #3, shiny 2.bin #3) and Rim (3.bin #0 only).
    const spec = highModelSpec()
    spec.materials = spec.materials.map((m) => (m.name === 'BodyMat' ? { ...m, units: [m.units[0]!, { texture: 'pm0999_00_Mouth1', wrap: [0, 3] }, { texture: 'pm0999_00_Rim' }] } : m))
    spec.textureNames = [...spec.textureNames, 'pm0999_00_Mouth1', 'pm0999_00_Rim']
    const files = buildSyntheticSet(1).files
    files.set('0.bin', buildPackage([buildGfModel(spec), buildGfModel(lowModelSpec())], { headerSize: 0x20, align: 16 }))
    const sc = buildGfScene(parseGfSet(files), { motions: false }).scene
    const units = (i: number) => (sc.materials[i]!.extras!.gf as { units: { texture: string; image: number | null }[] }).units
    const names = (i: number) => units(i).map((u) => (u.image === null ? null : sc.textures[u.image]!.name))
    expect(names(0)).toEqual(['1_0_pm0999_00_BodyA1', '1_3_pm0999_00_Mouth1', '3_0_pm0999_00_Rim'])
    expect(sc.materials[3]!.name).toBe('BodyMat (shiny)')
    expect(names(3)).toEqual(['2_0_pm0999_00_BodyA1', '2_3_pm0999_00_Mouth1', '3_0_pm0999_00_Rim'])
    expect(units(0)[0]!.image).toBe(sc.materials[0]!.texture)
    expect(sc.textures[units(0)[1]!.image!]).toMatchObject({ width: 16, height: 16, wrapS: 'clamp', wrapT: 'mirror' })
    // In the glb: every neutral texture is an image in order, so `image` is the glTF image index.
    const json = glbJson(await exportGlb(sc, { skipValidation: true }))
    const mat = json.materials.find((m: { name: string }) => m.name === 'BodyMat')
    expect(mat.extras.gf.units.map((u: { image: number }) => json.images[u.image].name)).toEqual(['1_0_pm0999_00_BodyA1', '1_3_pm0999_00_Mouth1', '3_0_pm0999_00_Rim'])
  })
})
