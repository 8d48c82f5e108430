import { describe, expect, it } from 'vitest'
import { Document, WebIO } from '@gltf-transform/core'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { readGltfAnimations } from '../../../../../src-shared/export/gltf-read'
import {
  importAnimation,
  importOutputName,
  motionFileScene,
  motionsOf,
  readMotionFile,
  sampleMot,
  chooseTrackEncoding,
  motLayout,
  eulerToQuat,
  type MotionFile,
  type Quat,
} from '../../../../../src-shared/formats/re'
import { buildStandaloneMot, buildTemplateMotlist } from '../../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

const REST = new Map(fixtureSkeleton().map((b) => [b.name, b]))

/**
 * A glTF made with @gltf-transform directly (not our exporter): nodes (at the fixture skeleton's
 * reference pose where they are named after its bones, so keys are the bones' local values) and
 * one animation.
 */
async function handGltf(build: (doc: Document, nodes: Record<string, ReturnType<Document['createNode']>>) => void, names = ['root', 'Hip', 'Spine_0']): Promise<Uint8Array> {
  const doc = new Document()
  doc.createBuffer()
  const nodes: Record<string, ReturnType<Document['createNode']>> = {}
  const scene = doc.createScene()
  let parent: ReturnType<Document['createNode']> | null = null
  for (const n of names) {
    const node = doc.createNode(n)
    const rest = REST.get(n)
    if (rest) node.setTranslation(rest.translation).setRotation(rest.rotation)
    if (parent) parent.addChild(node)
    else scene.addChild(node)
    parent = node
    nodes[n] = node
  }
  build(doc, nodes)
  return new WebIO().writeBinary(doc)
}

function channel(doc: Document, anim: ReturnType<Document['createAnimation']>, node: ReturnType<Document['createNode']>, path: 'translation' | 'rotation' | 'scale', times: number[], values: number[], interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE') {
  const input = doc.createAccessor().setType('SCALAR').setArray(new Float32Array(times))
  const output = doc.createAccessor().setType(path === 'rotation' ? 'VEC4' : 'VEC3').setArray(new Float32Array(values))
  const s = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(interpolation)
  anim.addSampler(s).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(s))
}

function importedValues(res: { bytes: Uint8Array }, bone: string, frame: number) {
  const f = readMotionFile(res.bytes)
  const m = motionsOf(f)[0]!
  return sampleMot(m.mot!, m.skeleton, frame).find((b) => b.bone === bone)!
}

/** Every frame of every motion of `orig`, after export → import, within `eps` (rotations up to sign). */
async function roundTrip(orig: MotionFile, eps: number): Promise<number> {
  const glb = await exportGlb(motionFileScene(orig).scene)
  const g = await readGltfAnimations(glb)
  let worst = 0
  motionsOf(orig).forEach((m, i) => {
    const res = importAnimation(orig, g, { animation: g.animations[i]!.name })
    expect(res.unmatchedNodes).toEqual([])
    const back = readMotionFile(res.bytes)
    const bm = motionsOf(back)[0]!
    expect(bm.mot!.header.frameCount).toBe(m.mot!.header.frameCount)
    expect(bm.mot!.header.frameRate).toBe(m.mot!.header.frameRate)
    expect(bm.mot!.name).toBe(m.mot!.name)
    for (let f = 0; f <= m.mot!.header.frameCount; f++) {
      const a = sampleMot(m.mot!, m.skeleton, f)
      const b = new Map(sampleMot(bm.mot!, bm.skeleton, f).map((x) => [x.bone, x]))
      for (const x of a) {
        const y = b.get(x.bone)!
        expect(y, `${x.bone} at frame ${f}`).toBeDefined()
        const sign = x.rotation.reduce((s, v, k) => s + v * y.rotation[k]!, 0) < 0 ? -1 : 1
        for (let k = 0; k < 4; k++) worst = Math.max(worst, Math.abs(x.rotation[k]! - sign * y.rotation[k]!))
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(x.translation[k]! - y.translation[k]!), Math.abs(x.scale[k]! - y.scale[k]!))
      }
    }
  })
  expect(worst).toBeLessThan(eps)
  return worst
}

describe('re export → re import round trip (every frame within 1e-4)', () => {
  it('a motlist whose motions use every RE4R codec', async () => {
    await roundTrip(readMotionFile(buildTemplateMotlist()), 1e-4)
  })
  it('a standalone mot 613 and an RE2 motlist 85 (mot 65, DMC5 codec table)', async () => {
    await roundTrip(readMotionFile(buildStandaloneMot(613)), 1e-4)
    await roundTrip(readMotionFile(buildTemplateMotlist({ version: 85 })), 1e-4)
  })
  it('keeps the template version and names the output after it', () => {
    expect(importOutputName('out/pose', 'motlist', 663)).toBe('out/pose.motlist.663')
    expect(importOutputName('out/pose.motlist.85', 'motlist', 663)).toBe('out/pose.motlist.663')
    expect(importOutputName('a.mot', 'mot', 613)).toBe('a.mot.613')
  })
})

describe('sampler evaluation at the template rate (hand-computed values)', () => {
  const template = () => readMotionFile(buildTemplateMotlist({ codecs: 'simple' }))

  it('LINEAR translation at 24 fps keys read at 60 fps; frame count from the last key time', async () => {
    const glb = await handGltf((doc, n) => {
      const a = doc.createAnimation('walk')
      // keys at 0 and 0.5 s: x from 0 to 1; frame 12 (0.2 s) is 0.4
      channel(doc, a, n.Hip!, 'translation', [0, 0.5], [0, 0.9, 0, 1, 0.9, 0], 'LINEAR')
    })
    const r = importAnimation(template(), await readGltfAnimations(glb))
    expect(r.frameCount).toBe(30)
    expect(r.frameRate).toBe(60)
    expect(importedValues(r, 'Hip', 12).translation[0]).toBeCloseTo(0.4, 6)
    expect(importedValues(r, 'Hip', 30).translation[0]).toBeCloseTo(1, 6)
  })

  it('STEP holds the earlier key until the next one', async () => {
    const glb = await handGltf((doc, n) => {
      const a = doc.createAnimation('step')
      channel(doc, a, n.Hip!, 'translation', [0, 0.25, 0.5], [0, 0, 0, 2, 0, 0, 5, 0, 0], 'STEP')
    })
    const r = importAnimation(template(), await readGltfAnimations(glb))
    expect([14, 15, 16, 29, 30].map((f) => importedValues(r, 'Hip', f).translation[0])).toEqual([0, 2, 2, 2, 5])
  })

  it('CUBICSPLINE uses the tangents, scaled by the key interval', async () => {
    // p0 = 0, out-tangent 1/s; p1 = 1, in-tangent 0; keys at 0 and 2 s. At t = 1 s (u = 0.5):
    // h00·0 + h10·(1·2) + h01·1 + h11·(0·2) = 0.125·2 + 0.5 = 0.75. Template rate 60 → frame 60.
    const glb = await handGltf((doc, n) => {
      const a = doc.createAnimation('cubic')
      channel(doc, a, n.Hip!, 'translation', [0, 2], [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], 'CUBICSPLINE')
    })
    const r = importAnimation(template(), await readGltfAnimations(glb))
    expect(r.frameCount).toBe(120)
    expect(importedValues(r, 'Hip', 60).translation[0]).toBeCloseTo(0.75, 6)
    // u = 0.25 (frame 30): h10 = 0.140625, h01 = 0.15625 → 0.140625·2 + 0.15625 = 0.4375
    expect(importedValues(r, 'Hip', 30).translation[0]).toBeCloseTo(0.4375, 6)
  })

  it('LINEAR rotations slerp; a negative-w key is canonicalised for the w-dropping code', async () => {
    // identity → 90° about Y, stored with w < 0 (−q): frame 15 of 30 is 45° about Y
    const s = Math.SQRT1_2
    const glb = await handGltf((doc, n) => {
      const a = doc.createAnimation('turn')
      channel(doc, a, n.Spine_0!, 'rotation', [0, 0.5], [0, 0, 0, 1, 0, -s, 0, -s], 'LINEAR')
    })
    const r = importAnimation(template(), await readGltfAnimations(glb))
    const q = importedValues(r, 'Spine_0', 15).rotation
    const want: Quat = [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)]
    const d = Math.min(...[1, -1].map((sg) => Math.max(...q.map((v, k) => Math.abs(v - sg * want[k]!)))))
    expect(d).toBeLessThan(1e-6)
    // the track rotates about Y only: the single-axis float code is chosen, lossless to float32
    const t = r.tracks.find((x) => x.bone === 'Spine_0')!
    expect(t.codec).toBe('YAxis')
    expect(t.compression).toBe(0x42000)
    expect(t.maxError).toBeLessThan(1e-7)
  })

  it('warns about animated nodes that match no bone, and about a different parent', async () => {
    const glb = await handGltf(
      (doc, n) => {
        const a = doc.createAnimation('x')
        channel(doc, a, n.Tail!, 'translation', [0, 0.1], [0, 0, 0, 1, 1, 1], 'LINEAR')
        channel(doc, a, n.Head!, 'translation', [0, 0.1], [0, 0, 0, 1, 1, 1], 'LINEAR')
      },
      ['Armature', 'root', 'Tail', 'Head'],
    )
    const r = importAnimation(template(), await readGltfAnimations(glb))
    expect(r.unmatchedNodes).toEqual(['Tail'])
    expect(r.warnings.join('\n')).toMatch(/node "Tail" is animated but the template has no bone/)
    // Head's template parent is Neck_1; in this glTF its nearest bone ancestor is root
    expect(r.warnings.join('\n')).toMatch(/node "Head": its glTF parent bone is root, the template's is Neck_1; its world-space pose is kept/)
  })
})

describe('per-track codec choice and its error', () => {
  const re3 = motLayout(613)
  it('takes 3Component for a general rotation and reports float32 rounding', () => {
    const q = eulerToQuat([0.3, 0.5, 0.7])
    const e = chooseTrackEncoding('rotation', [...q, ...q], re3)
    expect(e.codec).toBe('3Component')
    expect(e.maxError).toBeGreaterThan(0)
    expect(e.maxError).toBeLessThan(1e-7)
  })
  it('reports the large rebuilt-w error of a turn close to 180°', () => {
    // w = 1e-4: x = √(1 − w²) = 1 − 5e-9 rounds to 1.0 in float32, so the rebuilt w is 0 and the
    // error is 1e-4: no code is within the tolerance, the last candidate (3Component) is kept
    const w = 1e-4
    const e = chooseTrackEncoding('rotation', [Math.sqrt(1 - w * w), 0, 0, w], re3)
    expect(e.codec).toBe('3Component')
    expect(e.maxError).toBeCloseTo(1e-4, 9)
  })
  it('uses a single-axis float code for a vector moving along one axis, its constants in the unpack block', () => {
    const e = chooseTrackEncoding('translation', [0.5, 1, 2, 0.5, 1.25, 2], re3)
    expect(e.codec).toBe('YAxis')
    expect(e.encoded.data.byteLength).toBe(8)
    expect(e.encoded.unpack).toEqual([0.5, 1, 2])
    expect(e.maxError).toBe(0)
    expect(chooseTrackEncoding('translation', [0.5, 1, 2, 0.6, 1.25, 2], re3).codec).toBe('Full')
  })
  it('DMC5 table (mot 65): 3Component is 0xB0000', () => {
    const q = eulerToQuat([0.3, 0.5, 0.7])
    expect(chooseTrackEncoding('rotation', q, motLayout(65)).compression).toBe(0xb0000)
  })
})

describe('bad input', () => {
  it('a glTF without animations, an unknown --animation, a template without a skeleton', async () => {
    const glb = await handGltf(() => {})
    const t = readMotionFile(buildTemplateMotlist({ codecs: 'simple' }))
    expect(() => importAnimation(t, { nodes: [], animations: [], warnings: [] })).toThrow(/animations: the glTF holds no animation/)
    const g = await readGltfAnimations(glb)
    expect(() => importAnimation(t, g)).toThrow(/no animation/)
    const withAnim = await handGltf((doc, n) => channel(doc, doc.createAnimation('a'), n.Hip!, 'translation', [0, 1], [0, 0, 0, 1, 1, 1], 'LINEAR'))
    const ga = await readGltfAnimations(withAnim)
    expect(() => importAnimation(t, ga, { animation: 'b' })).toThrow(/no animation named "b"; the file has "a"/)
    const noSkeleton = readMotionFile(buildStandaloneMot(613, { skeleton: [] }))
    expect(() => importAnimation(noSkeleton, ga)).toThrow(/BoneHeaders: the template has no skeleton/)
  })
})

describe('size guards', () => {
  it('refuses an animation whose frames × channels would not fit the sampling budget, before sampling', async () => {
    // 10 bones × (T 3 + R 4 + S 3) = 100 components; 16 000 s at 60 fps = 960 001 frames (under the
    // 1 000 000-frame limit) → 96 000 100 values > 2^26 = 67 108 864
    const names = ['root', 'Hip', 'Spine_0', 'Spine_1', 'Spine_2', 'Neck_0', 'Neck_1', 'Head', 'Jaw', 'L_Eye']
    const glb = await handGltf((doc, n) => {
      const a = doc.createAnimation('long')
      for (const b of names) {
        channel(doc, a, n[b]!, 'translation', [0, 16_000], [0, 0, 0, 1, 1, 1], 'LINEAR')
        channel(doc, a, n[b]!, 'rotation', [0, 16_000], [0, 0, 0, 1, 0, 0, 0, 1], 'LINEAR')
        channel(doc, a, n[b]!, 'scale', [0, 16_000], [1, 1, 1, 1, 1, 1], 'LINEAR')
      }
    }, names)
    const t = readMotionFile(buildTemplateMotlist({ codecs: 'simple' }))
    const g = await readGltfAnimations(glb)
    expect(() => importAnimation(t, g)).toThrow(/animations: animation "long": 960001 frames × 100 key components is beyond the 67108864 values/)
  })
})
