import { describe, expect, it } from 'vitest'
import { Document, WebIO } from '@gltf-transform/core'
import { readGltfAnimations } from '../../../../src-shared/export/gltf-read'
import { FormatError } from '../../../../src-shared/binary/errors'

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

function splitGlb(glb: Uint8Array): { json: any; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength)
  const jl = dv.getUint32(12, true)
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jl)))
  const bl = dv.getUint32(20 + jl, true)
  return { json, bin: glb.slice(28 + jl, 28 + jl + bl) }
}

/** GLB container written by hand (glTF 2.0 §4.4): header, JSON chunk (space-padded), BIN chunk. */
function joinGlb(json: unknown, bin: Uint8Array): Uint8Array {
  let text = JSON.stringify(json)
  while (text.length % 4) text += ' '
  const j = new TextEncoder().encode(text)
  const out = new Uint8Array(12 + 8 + j.length + 8 + bin.length)
  const dv = new DataView(out.buffer)
  dv.setUint32(0, 0x46546c67, true)
  dv.setUint32(4, 2, true)
  dv.setUint32(8, out.length, true)
  dv.setUint32(12, j.length, true)
  dv.setUint32(16, 0x4e4f534a, true)
  out.set(j, 20)
  dv.setUint32(20 + j.length, bin.length, true)
  dv.setUint32(24 + j.length, 0x004e4942, true)
  out.set(bin, 28 + j.length)
  return out
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
    expect(g.nodes).toEqual([{ name: 'Hip', parent: -1 }])
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

  it('not glTF at all', async () => {
    expect((await failure(new TextEncoder().encode('hello'))).message).toMatch(/^in\.glb: glTF JSON: not valid JSON/)
    expect((await failure(new TextEncoder().encode('{"asset":{"version":"1.0"}}'))).message).toMatch(/asset: asset\.version is "1\.0", not glTF 2\.x/)
  })
})
