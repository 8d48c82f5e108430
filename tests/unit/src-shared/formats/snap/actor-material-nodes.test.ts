import { describe, expect, it } from 'vitest'
import { buildSnapRom } from '../../../../fixtures/snap/build-rom'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { actorMap, findStageActors, loadActor } from '../../../../../src-shared/formats/snap/actors'
import { buildActorScene } from '../../../../../src-shared/formats/snap/actor-scene'
import { stageByName } from '../../../../../src-shared/formats/snap/stages'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { readNodeList } from '../../../../../src-shared/formats/snap/node-list'

/**
 * Material tracks on an actor node other than 0 (issue 12 item 3, pokemon-snap.md §7.3, §7.6):
 * the fixture's two-node actor 26 on the Beach, with node 1 given node 0's material list, a DL
 * that calls its material 0 setup (G_DL 0x0E000000, §4.5) and its own material-track table
 * (written into the zeros the fixture leaves before the stage's HeightMap). Node 0 keeps its S
 * scroll (0 → 1 over 20 frames); node 1's track scrolls T. Expected values by hand (§4.5, §7.5).
 */
const f32 = (f: number) => { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, f); return d.getUint32(0) }
const word = (cmd: number, mask: number, dur: number) => ((cmd << 25) | (mask << 15) | dur) >>> 0

function twoNodeMaterialRom(): Uint8Array {
  const image = buildSnapRom().image.slice()
  const dv = new DataView(image.buffer, image.byteOffset)
  const sa = findStageActors(parseStage(image, 'beach'), image)
  const a = sa.actors.find((x) => x.id === 26)!
  const map = actorMap(sa, a)
  const romOf = (addr: number) => map.romOffset(addr)!
  const u32 = (addr: number) => dv.getUint32(romOf(addr))
  const put = (addr: number, v: number) => dv.setUint32(romOf(addr), v >>> 0)
  // node 1 draws with node 0's material list (textures[1] was 0: no materials)
  put(a.model!.textures + 4, u32(a.model!.textures))
  // free words before the HeightMap: node 1's material-track table, its one track, its new DL
  const at = stageByName('beach')!.collision - 0x80
  for (let i = 0; i < 0x80; i += 4) expect(u32(at + i), 'fixture: free words before the HeightMap').toBe(0)
  // offT0 0 → 0.5 blocking linear over 10 frames (cmd 3, bit 2)
  const track = [word(3, 0x004, 10), f32(0.5), 0]
  track.forEach((w, i) => put(at + 8 + i * 4, w))
  put(at, at + 8)
  // node 1's DL (LayerSplitDL {layer, preDL, dl} at its payload): material 0 setup, then the old DL
  const nodes = readNodeList(map, a.model!.tree, 'tree')
  const oldDl = u32(nodes[1]!.payload + 8)
  const dl = at + 0x40
  put(dl, 0xde000000)
  put(dl + 4, 0x0e000000)
  for (let i = 0; i < 8; i++) {
    const w0 = u32(oldDl + i * 8)
    put(dl + 8 + i * 8, w0)
    put(dl + 12 + i * 8, u32(oldDl + i * 8 + 4))
    if (w0 >>> 24 === 0xdf) break
  }
  put(nodes[1]!.payload + 8, dl)
  const matAnims = u32(a.animations[0]! + 12)
  expect(u32(matAnims + 4), 'fixture: node 1 has no material table').toBe(0)
  put(matAnims + 4, at)
  return image
}

describe('actor material tracks on every node that has them (§7.6)', () => {
  const image = twoNodeMaterialRom()
  const sa = findStageActors(parseStage(image, 'beach'), image)
  const raichu = loadActor(sa, sa.actors.find((x) => x.id === 26)!)
  const { scene, stats } = buildActorScene(raichu)
  const clip = scene.animations[0]!
  // the scene material of a node's triangles: node 1's draw stitches bone-0 and bone-1 vertices
  // (§6), node 0's quad has bone-0 vertices only
  const matOf = (node: number) => {
    const prim = scene.meshes[0]!.primitives.find((p) => Array.from(p.joints!).some((b, i) => i % 4 === 0 && b === 1) === (node === 1))
    return prim!.material
  }
  it('both nodes have their material tracks counted and their own scene material', () => {
    expect(stats.materialTracks).toBe(2)
    expect(matOf(0)).not.toBe(matOf(1))
    expect(validateScene(scene)).toBe(scene)
  })
  it('node 0: S scroll, one texture width at frame 20 (unchanged)', () => {
    const uv = clip.uvTracks!.find((t) => t.material === matOf(0))!
    const n = uv.values.length
    expect(uv.times[uv.times.length - 1]).toBeCloseTo(20 / 30, 5)
    expect(Math.abs(uv.values[n - 4]!)).toBeCloseTo(1, 3)
    expect(uv.values[n - 3]).toBeCloseTo(0, 6)
  })
  it('node 1: T scroll, offT0 = 0.25 at frame 5 and 0.5 at frame 10 (32-texel tile: ult = 0.5·32·4 = 64 → 64 / (4·32))', () => {
    const uv = clip.uvTracks!.find((t) => t.material === matOf(1))
    expect(uv, 'node 1 has a UV track').toBeDefined()
    // decimated: linear keys 0 → 10; sample V by interpolating between the kept keys
    const at = (frame: number, c: number) => {
      const t = frame / 30
      const times = Array.from(uv!.times)
      let i = times.findIndex((x) => x >= t - 1e-6)
      if (i < 0) i = times.length - 1
      if (Math.abs(times[i]! - t) < 1e-6 || i === 0) return uv!.values[i * 4 + c]!
      const k = (t - times[i - 1]!) / (times[i]! - times[i - 1]!)
      return uv!.values[(i - 1) * 4 + c]! * (1 - k) + uv!.values[i * 4 + c]! * k
    }
    expect(Math.abs(at(5, 1))).toBeCloseTo(0.25, 4)
    expect(Math.abs(at(10, 1))).toBeCloseTo(0.5, 4)
    expect(at(10, 0)).toBeCloseTo(0, 6) // no S scroll on node 1
    expect(uv!.times[uv!.times.length - 1]).toBeCloseTo(10 / 30, 5)
  })
})
