import { describe, expect, it } from 'vitest'
import { validateBytes } from 'gltf-validator'
import { AddressMap } from '../../../../../src-shared/formats/snap/address-map'
import { decodeCommandWord, payloadWords, segmentValue } from '../../../../../src-shared/formats/snap/anim-track'
import { channelAt, poseAt, prepareNodeTrack } from '../../../../../src-shared/formats/snap/actor-anim'
import type { GfxNode } from '../../../../../src-shared/formats/snap/node-list'
import { bakeMaterialAnim } from '../../../../../src-shared/formats/snap/material-anim'
import { findStageActors, loadActor } from '../../../../../src-shared/formats/snap/actors'
import { buildActorScene } from '../../../../../src-shared/formats/snap/actor-scene'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { buildSnapRom } from '../../../../fixtures/snap/build-rom'

const BASE = 0x80400000
const f32 = (f: number) => { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, f); return d.getUint32(0) }
const w = (cmd: number, mask: number, dur: number) => ((cmd << 25) | (mask << 15) | dur) >>> 0

function trackMap(words: number[]): AddressMap {
  const bytes = new Uint8Array(words.length * 4 + 8)
  const dv = new DataView(bytes.buffer)
  words.forEach((x, i) => dv.setUint32(i * 4, x >>> 0))
  return new AddressMap('t.z64', [{ archive: 't', kind: 'Data', start: BASE, bytes, romStart: 0x3000 }])
}
const track = (words: number[]) => prepareNodeTrack(trackMap(words), BASE, 'test track')
const restNode: GfxNode = { index: 0, addr: 0, info: 0, depth: 0, billboard: 0, parent: -1, payload: 0, translation: [1, 2, 3], rotation: [0.1, 0.2, 0.3], scale: [1, 1, 1] }

describe('§14.4 command words', () => {
  it('0x0A0A0005: cmd 5, mask 0x014 (rotation Z, translation X), 5 frames, 16 payload bytes (20 in all), blocking', () => {
    expect(decodeCommandWord(0x0a0a0005)).toEqual({ cmd: 5, mask: 0x014, duration: 5 })
    expect(payloadWords(5, 0x014) * 4).toBe(16)
    const t = track([0x0a0a0005, f32(1), f32(0), f32(2), f32(0), 0])
    expect(t.track.commands[0]!.values).toEqual([1, 2])
    expect(t.track.length).toBe(5) // blocks 5 frames
    expect(t.track.commands.length).toBe(1) // the END is 20 bytes on
  })
  it('0x1E000003: SET_FLAGS 0 blocking 3 frames; 0x1C100000 + pointer: loop to it', () => {
    expect(decodeCommandWord(0x1e000003)).toEqual({ cmd: 15, mask: 0, duration: 3 })
    expect(decodeCommandWord(0x1c100000)).toEqual({ cmd: 14, mask: 0x20, duration: 0 })
    const t = track([0x1e000003, 0x1e008002, 0x1c100000, BASE])
    expect(t.track.length).toBe(5)
    expect(t.track.loopTo).toBe(0)
    expect(t.flags).toEqual([[0, 0], [3, 1]])
  })
})

describe('§7.5 / §14.4 interpolation, hand-computed', () => {
  it('Hermite: 0 → 10 over 10 with end rate 0: 5 at τ = 5, 10 at τ = 10', () => {
    const t = track([w(8, 0x010, 10), f32(10), 0])
    expect(channelAt(t, 4, 5, 99)).toBeCloseTo(5, 6)
    expect(channelAt(t, 4, 10, 99)).toBeCloseTo(10, 6)
  })
  it('Hermite with r0 = 1 carried from an earlier command 5: 6.25 at τ = 5', () => {
    // cmd 5 (duration 0) sets p1 = 0 with targetRate 1; cmd 8 then starts from p0 = 0, r0 = 1:
    // h00·0 + h01·10 + D·h10·1 = 0.5·10 + 10·0.125 = 6.25
    const t = track([w(5, 0x010, 0), f32(0), f32(1), w(8, 0x010, 10), f32(10), 0])
    expect(channelAt(t, 4, 5, 99)).toBeCloseTo(6.25, 6)
  })
  it('step: 0 → 7 over 4: 0 at τ = 3.9, 7 at τ = 4', () => {
    const t = track([w(10, 0x010, 4), f32(7), 0])
    expect(channelAt(t, 4, 3.9, 99)).toBe(0)
    expect(channelAt(t, 4, 4, 99)).toBe(7)
  })
  it('linear, non-blocking, then WAIT 20: unclamped, 15 at τ = 15', () => {
    const t = track([w(4, 0x010, 10), f32(10), w(2, 0, 20), 0])
    expect(channelAt(t, 4, 15, 99)).toBeCloseTo(15, 6)
    expect(t.track.length).toBe(20)
  })
  it('colour lerp (0,0,0,255) → (255,255,255,255) over 4: k = 64 at τ = 1 → 63', () => {
    // c0 is set first by a zero-duration colour step (a channel's first command starts from 0)
    const map = trackMap([w(19, 0x001, 0), 0x000000ff, w(20, 0x001, 4), 0xffffffff, 0])
    const mat: Parameters<typeof bakeMaterialAnim>[1] = {
      addr: 0, fmt: 0, siz: 2, images: 0, scale: 32, shift: 0, widthMain: 32, heightMain: 32, halve: 0, offS0: 0, offT0: 0, scaleS: 1, scaleT: 1,
      palettes: 0, flags: 0x0200, fmt2: 0, siz2: 0, blockWidth: 0, blockHeight: 0, widthAux: 0, heightAux: 0, offS1: 0, offT1: 0, initOffS1: 0,
      primColor: 0x000000ff, primLOD: 0, minLOD: 0, envColor: 0, blendColor: 0, lightColor1: 0, lightColor2: 0,
    }
    const baked = bakeMaterialAnim(map, mat, BASE, 'mat')!
    expect(baked.frames[1]!.prim >>> 0).toBe(((63 << 24) | (63 << 16) | (63 << 8) | 255) >>> 0)
  })
  it('a channel without an earlier command starts from 0; untouched channels keep the rest pose', () => {
    const t = track([w(3, 0x020, 10), f32(10), 0]) // translation Y → 10 over 10
    const p = poseAt(t, restNode, 5)
    expect(p.translation).toEqual([1, 5, 3]) // Y ramps from 0, not from the rest value 2
    expect(p.rotation).toEqual([0.1, 0.2, 0.3])
  })
  it('SKIP (12) adds its duration to the selected channel’s local time', () => {
    // linear 0 → 10 over 10 (non-blocking), skip 4 frames on translation X, WAIT 10
    const t = track([w(4, 0x010, 10), f32(10), w(12, 0x010, 4), w(2, 0, 10), 0])
    expect(channelAt(t, 4, 2, 0)).toBeCloseTo(6, 6) // τ = 2 + 4
  })
  it('segment values directly: cubic with r1 at the end', () => {
    // p0 0, p1 2, r0 0, r1 0.5, D 6, τ = 3 (s = .5): h01·2 + D·h11·0.5 = 1 + 6·(−0.125)·0.5 = 0.625
    expect(segmentValue({ kind: 'cubic', start: 0, duration: 6, p0: 0, p1: 2, r0: 0, r1: 0.5 }, 3)).toBeCloseTo(0.625, 6)
  })
})

describe('JUMP and SET_PATH (§7.2, §7.5 path channel)', () => {
  it('JUMP (1) continues at its pointer without resetting the timer', () => {
    // [0] linear X → 10 over 10 (blocking), JUMP → [5]; [4] junk; [5] step X → 3 after 2, END
    const t = track([w(3, 0x010, 10), f32(10), w(1, 0, 0), BASE + 5 * 4, 0xffffffff, w(10, 0x010, 2), f32(3), 0])
    expect(t.track.commands.map((c) => c.cmd)).toEqual([3, 1, 10])
    expect(t.track.length).toBe(12)
    expect(channelAt(t, 4, 12, 0)).toBe(3)
  })
  it('the path parameter replaces the translation, clamped to [0, 1], in raw path units', () => {
    // InterpData at +0x40: linear, 2 points (0,0,0) → (100,50,0)
    const words = [w(13, 0x008, 0), BASE + 0x40, w(3, 0x008, 10), f32(2), 0]
    while (words.length < 16) words.push(0)
    words.push(0x00000002, f32(0), BASE + 0x58, f32(1), 0, 0) // type 0, n 2, tension, points, duration, paramPoints, speedFunc
    words.push(f32(0), f32(0), f32(0), f32(100), f32(50), f32(0))
    const t = track(words)
    expect(t.path?.numPoints).toBe(2)
    const p = poseAt(t, restNode, 2.5) // parameter 0.5
    expect(p.translation.map((v) => Math.round(v * 1e4) / 1e4)).toEqual([50, 25, 0])
    expect(poseAt(t, restNode, 10).translation).toEqual([100, 50, 0]) // parameter 2 → clamped to 1
  })
})

describe('actor scene (fixture actor 26: kind J, two nodes, stitched skin)', () => {
  const rom = buildSnapRom()
  const sa = findStageActors(parseStage(rom.image, 'beach'), rom.image)
  const raichu = loadActor(sa, sa.actors.find((a) => a.id === 26)!)
  const { scene, stats } = buildActorScene(raichu)

  it('a joint per node named `node <i>` with the §4.3 local transform; a skin with inverse rest matrices', () => {
    expect(scene.nodes.slice(0, 2).map((n) => [n.name, n.parent, n.translation])).toEqual([['node 0', -1, [0, 0, 0]], ['node 1', 0, [0, 100, 0]]])
    expect(scene.skins[0]!.joints).toEqual([0, 1])
    // node 1 rests at (0, 100, 0): its inverse bind matrix translates by −100 in Y
    expect(Array.from(scene.skins[0]!.inverseBindMatrices.subarray(16 + 12, 16 + 15))).toEqual([0, -100, 0])
    expect(validateScene(scene)).toBe(scene)
  })
  it('vertices loaded by the preDL belong to node 0, those of the node-1 DL to node 1, at bind-pose positions (§6)', () => {
    const prim = scene.meshes[0]!.primitives.find((p) => p.joints && Array.from(p.joints).some((j, i) => i % 4 === 0 && j === 1))!
    const rows: string[] = []
    for (let i = 0; i < prim.positions.length / 3; i++) rows.push(`${prim.joints![i * 4]}:${Array.from(prim.positions.subarray(i * 3, i * 3 + 3)).join(',')}`)
    // node 0's quad (±50, 0, ±50); the preDL's (−50,0,0), (50,0,0) in node 0's space; the node-1
    // DL's (50,80,0), (−50,80,0) moved by node 1's rest translation (0,100,0)
    expect(rows.sort()).toEqual(['0:-50,0,-50', '0:-50,0,0', '0:-50,0,50', '0:50,0,-50', '0:50,0,0', '0:50,0,50', '1:-50,180,0', '1:50,180,0'])
    expect(stats.triangles).toBe(4)
    // a triangle that mixes both bones
    const idx = Array.from(prim.indices)
    const mixes = [0, 3, 6, 9].some((k) => new Set(idx.slice(k, k + 3).map((v) => prim.joints![v * 4])).size === 2)
    expect(mixes).toBe(true)
  })
  it('the default animation: node 0 Y 0 → 10 over 10 frames; node 1 rotZ Hermite, hidden frames 10–12; material UV scroll', () => {
    const clip = scene.animations.find((a) => a.name === hex(raichu.actor.animations[0]!))!
    expect(clip.frameRate).toBe(30)
    expect(stats.animations[0]).toEqual({ name: clip.name, frames: 20 })
    const ty = clip.channels.find((c) => c.node === 0 && c.path === 'translation')!
    expect(ty.values[5 * 3 + 1]).toBeCloseTo(5, 5) // frame 5
    expect(ty.times[5]).toBeCloseTo(5 / 30, 6)
    const rz = clip.channels.find((c) => c.node === 1 && c.path === 'rotation')!
    // frame 5 of a zero-rate Hermite 0 → π/2 over 10 is π/4: quaternion z = sin(π/8)
    expect(rz.values[5 * 4 + 2]).toBeCloseTo(Math.sin(Math.PI / 8), 5)
    const vis = clip.visibility!.find((v) => v.node === 1)!
    expect(Array.from(vis.visible)).toEqual([1, 0, 1])
    expect(Array.from(vis.times).map((t) => Math.round(t * 30))).toEqual([0, 10, 12])
    const uv = clip.uvTracks![0]!
    expect(uv.times[uv.times.length - 1]).toBeCloseTo(20 / 30, 5)
    expect(Math.abs(uv.values[uv.values.length - 4]!)).toBeCloseTo(1, 3) // one texture width at frame 20
    expect(stats.materialTracks).toBe(1)
  })
  it('the second animation at speed 0.5 plays at 15 fps; step then Hermite with an end rate', () => {
    const clip = scene.animations[1]!
    expect(clip.frameRate).toBe(15)
    const rot = clip.channels.find((c) => c.node === 1 && c.path === 'rotation')!
    // frame 3: rotX still 0 (step at 4), rotY 0 (Hermite starts at frame 4) → identity
    expect(Array.from(rot.values.subarray(12, 16)).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 0, 0, 1])
  })
  it('a material image-index track becomes a texture swap (Pikachu: image 1 from frame 5 to 15)', () => {
    const pika = buildActorScene(loadActor(sa, sa.actors.find((a) => a.id === 25)!)).scene
    const swap = pika.animations[0]!.textureSwaps![0]!
    expect(Array.from(swap.times).map((t) => Math.round(t * 30))).toEqual([0, 5, 15])
    const [a, b, c] = Array.from(swap.textures)
    expect(a).toBe(c)
    expect(b).not.toBe(a)
    expect(pika.textures[b!]!.rgba).not.toEqual(pika.textures[a!]!.rgba)
    // scale X: non-blocking lerp 0 → 2 over 10, then WAIT 20: unclamped, 4 at frame 20
    const sc = pika.animations[0]!.channels.find((ch) => ch.path === 'scale')!
    expect(sc.values[20 * 3]).toBeCloseTo(4, 5)
  })
  it('exports a glb with 0 validator errors', async () => {
    const glb = await exportGlb(scene)
    const rep = await validateBytes(glb)
    expect(rep.issues.numErrors, JSON.stringify(rep.issues.messages.slice(0, 5))).toBe(0)
  })
})

function hex(n: number): string {
  return `0x${n.toString(16).toUpperCase()}`
}
