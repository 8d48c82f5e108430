/** Fixture ROM → models: archive, unwrap, root, geo walk, DLs in bucket order, materials, labels. */
import { describe, expect, it } from 'vitest'
import { openStadiumRom, loadModel } from '../../../../../src-shared/formats/stadium/model'
import { snapRomId } from '../../../../../src-shared/formats/snap/rom-id'
import { buildStadiumScene, stadiumScene, alphaModeForLayer, presetMaterial, wrapFromTile } from '../../../../../src-shared/formats/stadium/scene'
import { readStadiumSceneData } from '../../../../../src-shared/formats/stadium/scene-data'
import { readModelArchive } from '../../../../../src-shared/formats/stadium/archive'
import { labelAnimations, type BattleTable } from '../../../../../src-shared/formats/stadium/battle-table'
import { FormatError } from '../../../../../src-shared/binary'
import { buildStadiumRom, defaultBattleTable } from '../../../../fixtures/stadium/rom-builder'
import { richModel, plainModel } from '../../../../fixtures/stadium/models'
import type { FxModel, FxVtx } from '../../../../fixtures/stadium/model-builder'

const rom = buildStadiumRom({ files: [{ model: richModel(1), tail: 16 }, { model: plainModel(2), container: 'yay0' }, { model: plainModel(3), container: 'raw' }] })
const sr = openStadiumRom(rom, 'fixture.z64')

describe('Stadium ROM and archive', () => {
  it('identifies the image by its header (unverified) and reads the archive', () => {
    expect(sr.verified).toBe(false)
    expect(sr.warnings.join(' ')).toMatch(/unverified/)
    expect(sr.archive.id).toBe(0xef)
    expect(sr.archive.linkBase).toBe(0x8ff00000)
    expect(sr.archive.entries.length).toBe(3)
  })
  it('opens .v64 and .n64 byte orders to the same models', () => {
    const v64 = new Uint8Array(rom.length)
    for (let i = 0; i < rom.length; i += 2) { v64[i] = rom[i + 1]!; v64[i + 1] = rom[i]! }
    const s2 = openStadiumRom(v64, 'fixture.v64')
    expect(s2.rom.byteOrder).toBe('v64')
    expect(loadModel(s2, 0, { geometry: false }).graph.bones.length).toBe(4)
  })
  it('rejects a truncated ROM and an entry running past the end, with offsets', () => {
    expect(() => openStadiumRom(rom.subarray(0, 0x900000), 'short.z64')).toThrow(/truncated ROM/)
    const bad = rom.slice()
    new DataView(bad.buffer).setUint32(0x920000 + 0x14, 0x7fffff) // size of file 0
    try {
      readModelArchive(bad, 'bad.z64')
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError)
      expect((e as FormatError).offset).toBe(0x920010)
      expect((e as Error).message).toMatch(/bad\.z64.*record\[0\].*runs past/)
    }
  })
  it('rejects a ROM that is not Pokémon Stadium', () => {
    const other = buildStadiumRom({ files: [{ model: plainModel(1) }], name: 'POKEMON SNAP' })
    // the header names Snap: refused when the caller knows Snap (the app passes every registered N64 game)
    expect(() => openStadiumRom(other, 'snap.z64', undefined, [snapRomId])).toThrow(/not a Pokémon Stadium ROM: this is Pokémon Snap/)
  })
})

describe('model files', () => {
  const rich = loadModel(sr, 0)
  it('unwraps PERS-SZP with its zero tail, bare Yay0 and raw modules', () => {
    expect(rich.container.container).toBe('pers-szp')
    expect(rich.container.totalSize! - rich.container.dataSize!).toBe(16)
    expect(loadModel(sr, 1).container.container).toBe('yay0')
    expect(loadModel(sr, 2).container.container).toBe('raw')
  })
  it('finds the root struct and reads bones with both joint modes', () => {
    expect(rich.species).toBe(1)
    expect(rich.graph.bones.map((b) => [b.name, b.mode, b.parent])).toEqual([['bone00', 0, -1], ['bone01', 0, 0], ['bone02', 1, 1], ['bone03', 0, 2]])
    expect(rich.graph.bones[0]!.scale).toEqual([2, 1, 1])
    expect(rich.graph.levels.filter((l) => l.kind === 'scale')[0]!.scale).toEqual([0.125, 0.125, 0.125])
    expect(rich.graph.attachPoints.map((a) => [a.id, a.bone])).toEqual([[1, 0], [2, 0], [7, 2], [100, -1]]) // 100: recorded by the shadow node
    expect(rich.graph.callbacks.length).toBe(1)
    expect(rich.graph.shadows.length).toBe(1)
  })
  it('draws only the selected child of a selector, and 0x1E with the named joint', () => {
    const draws = rich.graph.draws
    expect(draws.length).toBe(5) // A, selected child, B, C, D (the unselected child is not drawn)
    const d = draws.find((x) => x.op === 0x1e)!
    expect(d.bone).toBe(1) // names joint 1 (bone B) although it sits under bone D
  })
  it('runs DLs in bucket order with one vertex cache; vertices keep the matrix that loaded them', () => {
    const tris = rich.dl!.triangles
    // bucket 1: A (2 tris), selected child, B, D (2 tris); bucket 4: C
    expect(tris.map((t) => t.draw.bucket)).toEqual([1, 1, 1, 1, 1, 1, 4])
    const dTri = tris[4]!
    expect(dTri.draw.op).toBe(0x1e)
    // corner 0 was loaded by A's DL (slot 1, bone A's level) and survives C's overwrite of slot 1
    const levelOfBone = (b: number) => rich.graph.bones[b]!.level
    expect(dTri.v[0].bone).toBe(levelOfBone(0))
    expect(dTri.v[1].bone).toBe(levelOfBone(1))
    // B cleared both cull bits; D inherits that within bucket 1; C gets the flush (cull back)
    expect(dTri.geometryMode & 0x600).toBe(0)
    expect(tris[6]!.geometryMode & 0x600).toBe(0x400)
    expect(rich.orderDifferences).toBe(2)
    const parity = loadModel(sr, 0, { pipelineParity: true })
    const pd = parity.dl!.triangles.find((t) => t.draw.op === 0x1e)!
    expect(pd.v[0].bone).toBe(levelOfBone(2)) // traversal order: C overwrote slot 1 first
    expect(pd.geometryMode & 0x600).toBe(0x400) // the pipeline resets the mode per DL
  })
  it('reads material DL tiles: palette bank and wrap modes', () => {
    const tiles = [...rich.dl!.materialTiles.values()]
    expect(tiles.some((t) => t.cms === 1 && t.cmt === 2)).toBe(true)
    expect(tiles.some((t) => t.palette === 1)).toBe(true)
    expect(wrapFromTile(1, 3)).toBe('mirror')
    expect(wrapFromTile(2, 2)).toBe('clamp')
    expect(wrapFromTile(0, 5)).toBe('repeat')
  })
  it('maps presets and layers to materials', () => {
    expect(alphaModeForLayer(1).alphaMode).toBe('OPAQUE')
    expect(alphaModeForLayer(4)).toEqual({ alphaMode: 'MASK', alphaCutoff: 0.5 })
    expect(alphaModeForLayer(5).alphaMode).toBe('BLEND')
    const p1 = presetMaterial({ at: 0, preset: 1, texAnimChannel: -1, dl: -1, textureIndex: 0, paletteIndex: -1, prim: [10, 20, 30, 40] })
    expect(p1.baseColor).toEqual([1, 1, 1, 1])
    const p4 = presetMaterial({ at: 0, preset: 4, texAnimChannel: -1, dl: -1, textureIndex: 0, paletteIndex: -1, prim: [255, 0, 255, 51] })
    expect(p4.baseColor).toEqual([1, 0, 1, 0.2])
    expect(presetMaterial({ at: 0, preset: 7, texAnimChannel: -1, dl: -1, textureIndex: 0, paletteIndex: -1, prim: [0, 0, 0, 0] }).opaqueAlpha).toBe(true)
    expect(presetMaterial({ at: 0, preset: 12, texAnimChannel: -1, dl: -1, textureIndex: 0, paletteIndex: -1, prim: [0, 0, 0, 0] }).vertexColors).toBe(true)
  })
})

describe('scene', () => {
  const rich = loadModel(sr, 0)
  const scene = buildStadiumScene(rich)
  it('structure step, then a conversion that reads no module byte', () => {
    const m = loadModel(openStadiumRom(rom.slice(), 'fixture.z64'), 0) // its own ROM copy: the bytes get wiped
    const data = readStadiumSceneData(m)
    expect(data.poses.length).toBe(m.animations.length)
    expect(data.poses.map((p) => p.length)).toEqual(m.animations.map((a) => Math.max(1, a.frameCount)))
    expect([...data.pixels.values()].some((d) => !(d instanceof Error))).toBe(true)
    m.module.bytes.fill(0xa5) // anything the conversion could still read is now garbage
    expect(stadiumScene(m, data)).toEqual(scene)
  })
  it('pivot + scale nodes, skin joints = the leaves, identity inverse binds', () => {
    const names = scene.nodes.map((n) => n.name)
    expect(names.slice(0, 4)).toEqual(['model', 'model_root', 'bone00', 'bone00_scale'])
    const skin = scene.skins[0]!
    expect(skin.joints.map((j) => names[j])).toEqual(['bone00_scale', 'bone01_scale', 'bone02_scale', 'bone03_scale'])
    expect([...skin.inverseBindMatrices.subarray(0, 16)]).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    // mode-1 bone C hangs under B's leaf; mode-0 bone D under C (a mode-1 node)
    const idx = (n: string) => names.indexOf(n)
    expect(scene.nodes[idx('bone02')]!.parent).toBe(idx('bone01_scale'))
    expect(scene.nodes[idx('bone03')]!.parent).toBe(idx('bone02_scale'))
    expect(scene.nodes[idx('bone01')]!.parent).toBe(idx('bone00'))
    expect(scene.nodes[idx('attach_7')]!.parent).toBe(idx('bone02'))
  })
  it('binds every vertex rigidly to the joint whose DL loaded it', () => {
    const prim = scene.meshes[0]!.primitives
    const joints = new Set<number>()
    for (const p of prim) for (let i = 0; i < p.joints!.length; i += 4) { joints.add(p.joints![i]!); expect(p.weights![i]).toBe(1) }
    // bone D's only DL is a 0x1E naming joint 1, so its vertices belong to bone B
    expect([...joints].sort()).toEqual([0, 1, 2])
  })
  it('texture-swap tracks for the eye material follow the paired texture animation', () => {
    const withSwaps = scene.animations.filter((a) => a.textureSwaps?.length)
    expect(withSwaps.length).toBeGreaterThan(0)
    const sw = withSwaps[0]!.textureSwaps![0]!
    const mat = scene.materials[sw.material]!
    expect(mat.extras!.texAnimChannel).toBe(0)
    // stream 1 1 2 2 3 3 3 2 2 1: each texture index maps to one scene texture
    const tx = [...sw.textures]
    expect(tx[0]).toBe(tx[1])
    expect(tx[2]).not.toBe(tx[0])
    expect(tx[9]).toBe(tx[0])
    expect(scene.textures[tx[0]!]!.name).toMatch(/^01_8x8_p0b1/)
  })
  it('decodes CI4 with the palette bank (§19.6: byte 0x3C, bank 2 → entries 35 then 44)', async () => {
    const { decodeModelTexture } = await import('../../../../../src-shared/formats/stadium/model-header')
    const pal = Array.from({ length: 48 }, (_, i) => ((i & 31) << 11) | 1)
    const model: FxModel = { ...plainModel(9), textures: [{ fmt: 2, siz: 0, w: 2, h: 1, data: Uint8Array.of(0x3c) }], palettes: [pal] }
    const s = openStadiumRom(buildStadiumRom({ files: [{ model }] }), 'ci.z64')
    const m = loadModel(s, 0, { geometry: false })
    const { rgba } = decodeModelTexture(m.module, m.tables, 0, 0, 2)
    const e5 = (v: number) => (v << 3) | (v >> 2)
    expect([rgba[0], rgba[4]]).toEqual([e5(35 & 31), e5(44 & 31)])
  })
})

describe('§19.9 bucket order and the vertex cache', () => {
  const v3 = (z: number): FxVtx[] => [{ p: [0, 0, z] }, { p: [1, 0, z] }, { p: [0, 1, z] }]
  const model: FxModel = {
    species: 9, textures: [], palettes: [], anims: [], texAnims: [],
    skeleton: {
      jointId: 0, flags: 1, channel: -1, t: [0, 0, 0], r: [0, 0, 0], s: [1, 1, 1],
      draws: [{ layer: 1, dl: [{ vtx: { slot: 0, verts: v3(0) } }, { tri: [0, 1, 2] }] }],
      children: [{
        jointId: 1, flags: 1, channel: -1, t: [0, 0, 0], r: [0, 0, 0], s: [1, 1, 1],
        draws: [{ layer: 4, dl: [{ vtx: { slot: 0, verts: v3(1) } }, { tri: [0, 1, 2] }] }],
        children: [{ jointId: 2, flags: 1, channel: -1, t: [0, 0, 0], r: [0, 0, 0], s: [1, 1, 1], draws: [{ layer: 1, dl: [{ vtx: { slot: 3, verts: v3(2).slice(0, 2) } }, { tri: [0, 3, 4] }] }] }],
      }],
    },
  }
  const s = openStadiumRom(buildStadiumRom({ files: [{ model }] }), 'b.z64')
  it('game order a, c, b: c corner 0 is a’s vertex (bone 0); traversal gives b’s (bone 1); one triangle differs', () => {
    const m = loadModel(s, 0)
    const c = m.dl!.triangles.find((t) => t.draw.bone === 2)!
    expect(m.dl!.triangles.map((t) => t.draw.bone)).toEqual([0, 2, 1])
    expect(c.v[0].bone).toBe(m.graph.bones[0]!.level)
    expect(c.v[0].z).toBe(0)
    const p = loadModel(s, 0, { pipelineParity: true }).dl!.triangles.find((t) => t.draw.bone === 2)!
    expect(p.v[0].z).toBe(1)
    expect(m.orderDifferences).toBe(1)
    expect(m.dl!.crossBucketTriangles).toBe(0)
  })
})

describe('battle labels (§15.5)', () => {
  it('names by context priority, then attack, numbering duplicates; pairs the most common aux', () => {
    const raw = defaultBattleTable(6, 2)
    // every entry playing animation 5 but the first pairs texture animation 1: the majority wins
    let first = true
    for (let e = 0; e < 185; e++) if (raw[e * 16] === 5) { raw[e * 16 + 1] = first ? 0 : 1; first = false }
    const table: BattleTable = { entry: 0, romOffset: 0, entries: Array.from({ length: 185 }, (_, e) => ({ anim: raw[e * 16]!, aux: raw[e * 16 + 1] === 0xff ? -1 : raw[e * 16 + 1]!, attach: 0, triggerFrame: 0, effect: 0, startFrameBoth: 0, playStartFrame: 0, raw: [] })) }
    const l = labelAnimations(table, 6, 2)
    expect(l.labels.map((x) => x.name)).toEqual(['idle', 'sleep', 'attack_default', 'attack', 'faint', 'hit'])
    expect(l.defaultAnim).toBe(2)
    expect(l.labels[5]!.pipelineContexts).toContain('entrance')
    expect(l.labels[5]!.pairedTextureAnimation).toBe(1)
    expect(l.labels[0]!.pairedTextureAnimation).toBe(0)
    const moves3 = l.labels[3]!.moveIds
    expect(moves3[0]).toBe(1) // entry 0 = move 1
    const none = labelAnimations(null, 3, 1)
    expect(none.labels.map((x) => x.name)).toEqual(['anim0', 'anim1', 'anim2'])
    expect(none.labels[0]!.pairedTextureAnimation).toBe(0)
  })
  it('files 151 and 152 use battle-table entries 151 and 152', () => {
    const files = Array.from({ length: 153 }, (_, i) => ({ model: plainModel(i + 1) }))
    const big = buildStadiumRom({ files, battle: (e) => (e === 151 || e === 152 ? defaultBattleTable(1, 0).map((x, k) => (k % 16 === 5 ? e : x)) : null) })
    const s = openStadiumRom(big, 'big.z64')
    expect(loadModel(s, 151, { geometry: false }).battle!.entries[0]!.effect).toBe(151)
    expect(loadModel(s, 152, { geometry: false }).battle!.entries[0]!.effect).toBe(152)
  })
})

describe('§8.3 culling and winding (§19.7 GEOMETRYMODE vector)', () => {
  const v3 = (x: number): FxVtx[] => [{ p: [x, 0, 0] }, { p: [x + 1, 0, 0] }, { p: [x, 1, 0] }]
  const model: FxModel = {
    species: 9, textures: [], palettes: [], anims: [], texAnims: [],
    skeleton: {
      jointId: 0, flags: 1, channel: -1, t: [0, 0, 0], r: [0, 0, 0], s: [1, 1, 1],
      draws: [
        { layer: 1, material: { preset: 0, prim: [255, 255, 255, 255] }, dl: [{ vtx: { slot: 0, verts: v3(0) } }, { tri: [0, 1, 2] }] },
        { layer: 1, dl: [{ gm: [0x600, 0x200] }, { vtx: { slot: 0, verts: v3(10) } }, { tri: [0, 1, 2] }] },
        { layer: 1, dl: [{ gm: [0x600, 0] }, { vtx: { slot: 0, verts: v3(20) } }, { tri: [0, 1, 2] }] },
        { layer: 1, dl: [{ gm: [0, 0x600] }, { vtx: { slot: 0, verts: v3(30) } }, { tri: [0, 1, 2] }] },
      ],
    },
  }
  const s = openStadiumRom(buildStadiumRom({ files: [{ model }] }), 'cull.z64')
  it('back cull keeps the winding; front cull reverses it; no cull is double-sided; both bits draw nothing', () => {
    const m = loadModel(s, 0)
    expect(m.dl!.triangles.map((t) => t.geometryMode & 0x600)).toEqual([0x400, 0x200, 0, 0x600])
    const scene = buildStadiumScene(m)
    const prims = scene.meshes[0]!.primitives
    // triangles as corner x / y lists with their material's doubleSided flag
    const tris: { xs: number[]; ys: number[]; ds: boolean }[] = []
    for (const p of prims) for (let k = 0; k < p.indices.length; k += 3) {
      const c = [0, 1, 2].map((j) => p.indices[k + j]!)
      tris.push({ xs: c.map((i) => p.positions[i * 3]!), ys: c.map((i) => p.positions[i * 3 + 1]!), ds: scene.materials[p.material]!.doubleSided })
    }
    const at = (x: number) => tris.find((t) => Math.min(...t.xs) === x)
    expect(tris.length).toBe(3)
    expect(at(0)).toEqual({ xs: [0, 1, 0], ys: [0, 0, 1], ds: false })
    expect(at(10)).toEqual({ xs: [10, 10, 11], ys: [0, 1, 0], ds: false }) // (a, c, b)
    expect(at(20)!.ds).toBe(true)
    expect(at(30)).toBeUndefined()
    expect((scene.extras!.warnings as string[]).join(' ')).toMatch(/both cull bits/)
  })
})

describe('§8.3 geometry mode across nested G_DL calls', () => {
  const v3 = (x: number): FxVtx[] => [{ p: [x, 0, 0] }, { p: [x + 1, 0, 0] }, { p: [x, 1, 0] }]
  const model: FxModel = {
    species: 9, textures: [], palettes: [], anims: [], texAnims: [],
    skeleton: {
      jointId: 0, flags: 1, channel: -1, t: [0, 0, 0], r: [0, 0, 0], s: [1, 1, 1],
      draws: [{ layer: 1, dl: [{ call: [{ gm: [0x600, 0] }] }, { vtx: { slot: 0, verts: v3(0) } }, { tri: [0, 1, 2] }] }],
    },
  }
  const s = openStadiumRom(buildStadiumRom({ files: [{ model }] }), 'nested.z64')
  it('the game keeps a called list’s mode change after it returns; the pipeline loses it', () => {
    expect(loadModel(s, 0).dl!.triangles[0]!.geometryMode & 0x600).toBe(0)
    expect(loadModel(s, 0, { pipelineParity: true }).dl!.triangles[0]!.geometryMode & 0x600).toBe(0x400)
  })
})

describe('battle table out of range', () => {
  it('leaves the animations unlabelled with a warning instead of failing the model', () => {
    const r = buildStadiumRom({ files: [{ model: plainModel(1) }] })
    new DataView(r.buffer).setUint32(0x767d0, 0xfffff0)
    const m = loadModel(openStadiumRom(r, 'x.z64'), 0, { geometry: false })
    expect(m.battle).toBeNull()
    expect(m.labels.labels[0]!.name).toBe('anim0')
    expect(m.warnings.join(' ')).toMatch(/battle table 0.*runs past the end/)
  })
})

describe('§19.6 texture decode through the model tables', () => {
  it('RGBA16, IA8 and CI8 records', async () => {
    const { decodeModelTexture } = await import('../../../../../src-shared/formats/stadium/model-header')
    const pal = Array.from({ length: 256 }, (_, i) => (i === 7 ? 0xf801 : 0x003f))
    const model: FxModel = {
      ...plainModel(9),
      textures: [
        { fmt: 0, siz: 2, w: 3, h: 1, data: Uint8Array.of(0xf8, 0x01, 0x07, 0xc0, 0x00, 0x3f) },
        { fmt: 3, siz: 1, w: 1, h: 1, data: Uint8Array.of(0xa5) },
        { fmt: 2, siz: 1, w: 2, h: 1, data: Uint8Array.of(7, 8) },
      ],
      palettes: [pal],
    }
    const m = loadModel(openStadiumRom(buildStadiumRom({ files: [{ model }] }), 't.z64'), 0, { geometry: false })
    expect([...decodeModelTexture(m.module, m.tables, 0, -1, 0).rgba]).toEqual([255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 255])
    expect([...decodeModelTexture(m.module, m.tables, 1, -1, 0).rgba]).toEqual([170, 170, 170, 85])
    expect(m.tables.palettes[0]!.count).toBe(256) // from the TLUT DL's G_LOADTLUT
    expect([...decodeModelTexture(m.module, m.tables, 2, 0, 0).rgba]).toEqual([255, 0, 0, 255, 0, 0, 255, 255])
  })
})
