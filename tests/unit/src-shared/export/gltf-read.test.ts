import { describe, expect, it } from 'vitest'
import { Document, WebIO } from '@gltf-transform/core'
import { readGltfAnimations } from '../../../../src-shared/export/gltf-read'
import { FormatError } from '../../../../src-shared/binary/errors'
import { joinGlb, splitGlb } from '../../../fixtures/scene/glb-container'

/** A small glb written by @gltf-transform: node "Hip", one LINEAR translation channel (2 keys). */
async function sampleGlb(values = [0, 0, 0, 1, 2, 3], times = [0, 0.5]): Promise<Uint8Array> {
  const doc = new Document()
  doc.createBuffer()
  const hip = doc.createNode('Hip')
  doc.createScene().addChild(hip)
  const s = doc
    .createAnimationSampler()
    .setInput(doc.createAccessor().setType('SCALAR').setArray(new Float32Array(times)))
    .setOutput(doc.createAccessor().setType('VEC3').setArray(new Float32Array(values)))
    .setInterpolation('LINEAR')
  doc.createAnimation('move').addSampler(s).addChannel(doc.createAnimationChannel().setTargetNode(hip).setTargetPath('translation').setSampler(s))
  return new WebIO().writeBinary(doc)
}


async function failure(bytes: Uint8Array, opts = {}): Promise<FormatError> {
  const e = await readGltfAnimations(bytes, { file: 'in.glb', ...opts }).then(
    () => null,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(FormatError)
  return e as FormatError
}

describe('readGltfAnimations', () => {
  it('reads node names, parents and channels', async () => {
    const g = await readGltfAnimations(await sampleGlb())
    expect(g.nodes).toEqual([{ name: 'Hip', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }])
    expect(g.animations).toHaveLength(1)
    const ch = g.animations[0]!.channels[0]!
    expect([ch.node, ch.path, ch.interpolation]).toEqual([0, 'translation', 'LINEAR'])
    expect(Array.from(ch.times)).toEqual([0, 0.5])
    expect(Array.from(ch.values)).toEqual([0, 0, 0, 1, 2, 3])
  })

  it('reads a .gltf JSON with an embedded (data URI) buffer and one with an external buffer', async () => {
    const { json, bin } = splitGlb(await sampleGlb())
    const b64 = Buffer.from(bin).toString('base64')
    const embedded = { ...json, buffers: [{ byteLength: bin.length, uri: `data:application/octet-stream;base64,${b64}` }] }
    const g = await readGltfAnimations(new TextEncoder().encode(JSON.stringify(embedded)))
    expect(Array.from(g.animations[0]!.channels[0]!.values)).toEqual([0, 0, 0, 1, 2, 3])
    const ext = { ...json, buffers: [{ byteLength: bin.length, uri: 'anim.bin' }] }
    const text = new TextEncoder().encode(JSON.stringify(ext))
    expect((await readGltfAnimations(text, { external: { 'anim.bin': bin } })).animations).toHaveLength(1)
    const e = await failure(text)
    expect(e.message).toBe('in.glb: buffers[0]: external buffer "anim.bin" was not found')
  })

  it('gives each node its rest TRS, a `matrix` decomposed', async () => {
    const { json, bin } = splitGlb(await sampleGlb())
    const b64 = Buffer.from(bin).toString('base64')
    // column-major: 90° about Z (x → y), scale 2, translation (1, 2, 3)
    const matrix = [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]
    const doc = { ...json, nodes: [{ ...json.nodes[0], matrix }], buffers: [{ byteLength: bin.length, uri: `data:application/octet-stream;base64,${b64}` }] }
    const n = (await readGltfAnimations(new TextEncoder().encode(JSON.stringify(doc)))).nodes[0]!
    expect(n.translation).toEqual([1, 2, 3])
    n.scale.forEach((v) => expect(v).toBeCloseTo(2, 6))
    ;[0, 0, Math.SQRT1_2, Math.SQRT1_2].forEach((v, k) => expect(n.rotation[k]).toBeCloseTo(v, 6))
  })

  it('a truncated glb names the GLB header length at 0x8', async () => {
    const glb = await sampleGlb()
    const e = await failure(glb.subarray(0, glb.length - 10))
    expect(e.structure).toBe('GLB header.length')
    expect(e.offset).toBe(8)
    expect(e.message).toMatch(/^in\.glb: GLB header\.length at 0x8: truncated GLB: the header says \d+ bytes, the file has \d+$/)
    expect((await failure(glb.subarray(0, 15))).message).toMatch(/truncated GLB: 15 bytes/)
  })

  it('a glb whose header length is consistent but whose BIN chunk is cut', async () => {
    const { json, bin } = splitGlb(await sampleGlb())
    const cut = joinGlb(json, bin.subarray(0, 8))
    const e = await failure(cut)
    expect(e.structure).toBe('buffers[0]')
    expect(e.message).toMatch(/byteLength is 32, but only 8 bytes are there \(truncated\)/)
  })

  it('an accessor count past its bufferView, with the absolute offset in the glb', async () => {
    // 2 times (8 bytes) then 2 VEC3 values (24 bytes) in one 32-byte view: the output is at +8,
    // and 1000 VEC3 need 8 + 12·999 + 12 = 12008 bytes
    const { json, bin } = splitGlb(await sampleGlb())
    const out = json.animations[0].samplers[0].output
    json.accessors[out].count = 1000
    const e = await failure(joinGlb(json, bin))
    expect(e.structure).toBe(`accessors[${out}]`)
    expect(e.message).toMatch(/count 1000 × 12 bytes from byteOffset 8 needs 12008 bytes, but bufferViews\[0\] has 32 \(accessor past the buffer\)/)
    // the BIN chunk data starts at 20 + JSON length + 8
    const jl = new DataView(joinGlb(json, bin).buffer).getUint32(12, true)
    const view = json.bufferViews[json.accessors[out].bufferView]
    expect(e.offset).toBe(28 + jl + (view.byteOffset ?? 0) + (json.accessors[out].byteOffset ?? 0))
  })

  it('a bufferView past its buffer', async () => {
    const { json, bin } = splitGlb(await sampleGlb())
    json.bufferViews[0].byteLength = 4096
    expect((await failure(joinGlb(json, bin))).message).toMatch(/bufferViews\[0\]: byteOffset 0 \+ byteLength 4096 is past the end of buffer 0/)
  })

  it('NaN or infinite keys, and times that do not increase, name the animation, channel and key', async () => {
    let e = await failure(await sampleGlb([0, 0, 0, 1, NaN, 3]))
    expect(e.message).toBe('in.glb: animations[0] "move" channels[0] (translation of node "Hip"): key 1: value is NaN or infinite')
    e = await failure(await sampleGlb(undefined, [0, Infinity]))
    expect(e.detail).toBe('key 1: time is NaN or infinite')
    e = await failure(await sampleGlb(undefined, [0.5, 0.5]))
    expect(e.detail).toBe('key 1: time 0.5 does not increase (previous 0.5)')
  })

  it('denormalises normalised integer rotation outputs (glTF 2.0 §5.22 animation sampler)', async () => {
    const doc = new Document()
    doc.createBuffer()
    const hip = doc.createNode('Hip')
    doc.createScene().addChild(hip)
    // int16 normalised: c = max(v / 32767, −1); 23170 / 32767 = 0.70711… (≈ √½)
    const out = doc.createAccessor().setType('VEC4').setArray(new Int16Array([0, 0, 0, 32767, 0, 23170, 0, 23170])).setNormalized(true)
    const s = doc.createAnimationSampler().setInput(doc.createAccessor().setType('SCALAR').setArray(new Float32Array([0, 1]))).setOutput(out)
    doc.createAnimation('turn').addSampler(s).addChannel(doc.createAnimationChannel().setTargetNode(hip).setTargetPath('rotation').setSampler(s))
    const g = await readGltfAnimations(await new WebIO().writeBinary(doc))
    const v = Array.from(g.animations[0]!.channels[0]!.values)
    expect(v.slice(0, 4)).toEqual([0, 0, 0, 1])
    expect(v[5]).toBeCloseTo(23170 / 32767, 6)
  })

  it('not glTF at all', async () => {
    expect((await failure(new TextEncoder().encode('hello'))).message).toMatch(/^in\.glb: glTF JSON: not valid JSON/)
    expect((await failure(new TextEncoder().encode('{"asset":{"version":"1.0"}}'))).message).toMatch(/asset: asset\.version is "1\.0", not glTF 2\.x/)
  })
})
