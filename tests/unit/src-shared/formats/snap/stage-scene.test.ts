import { describe, expect, it } from 'vitest'
import { validateBytes } from 'gltf-validator'
import { buildSnapRom, defaultStage } from '../../../../fixtures/snap/build-rom'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { buildStageScene, stageScene } from '../../../../../src-shared/formats/snap/stage-scene'
import { readStageModels } from '../../../../../src-shared/formats/snap/stage-models'
import { quatFromEulerExtrinsicXYZ } from '../../../../../src-shared/scene/math'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { markerNodes } from '../../../../../src-renderer/viewport/explore'

const rom = buildSnapRom()

describe('stage scene (neutral model)', () => {
  const st = parseStage(rom.image, 'river')
  const { scene, stats } = buildStageScene(st)
  it('validates and places rooms at worldPos × 100 without yaw', () => {
    validateScene(scene)
    const rooms = scene.nodes.filter((n) => (n.extras?.snap as { kind?: string })?.kind === 'room')
    expect(rooms.map((n) => n.name)).toEqual(['Path room 0', 'Path room 1', 'Path room 2', 'Path room 3', 'Non-path room 0'])
    expect(rooms[3]!.translation).toEqual([0, 0, 3000])
    expect(rooms[4]!.translation).toEqual([-1200, -100, 0])
    expect(rooms.every((n) => n.rotation[3] === 1)).toBe(true)
    expect(stats.warnings).toEqual([])
  })
  it('one mesh per room, one primitive per material; textures decoded; colours for unlit, normals for lit', () => {
    const room0 = scene.nodes.find((n) => n.name === 'Path room 0')!
    const mesh = scene.meshes[room0.mesh!]!
    expect(mesh.primitives.length).toBe(1)
    const p = mesh.primitives[0]!
    expect(p.indices.length / 3).toBe(72)
    expect(p.colors).toBeDefined()
    expect(p.normals).toBeUndefined()
    expect(p.uvs!.length / 2).toBe(p.positions.length / 3)
    const mat = scene.materials[p.material]!
    expect(mat.unlit).toBe(true)
    expect(mat.doubleSided).toBe(false)
    const tex = scene.textures[mat.texture!]!
    expect([tex.width, tex.height]).toEqual([32, 32])
    // room 1 is lit: normals (0, 127, 0) → +Y
    const lit = scene.meshes[scene.nodes.find((n) => n.name === 'Path room 1')!.mesh!]!.primitives[0]!
    expect(lit.normals).toBeDefined()
    expect([lit.normals![0], lit.normals![1], lit.normals![2]]).toEqual([0, 1, 0])
    // vertex positions stay room-local (the node carries the placement)
    expect(Math.max(...p.positions.filter((_, i) => i % 3 === 2))).toBe(1000)
  })
  it('UVs follow S10.5 texel coordinates over the tile size: the last grid column is at 2 repeats', () => {
    const p = scene.meshes[scene.nodes.find((n) => n.name === 'Path room 0')!.mesh!]!.primitives[0]!
    const us = Array.from(p.uvs!.filter((_, i) => i % 2 === 0))
    expect(Math.min(...us)).toBeCloseTo(0, 5)
    expect(Math.max(...us)).toBeCloseTo(2, 3)
  })
  it('skybox node at identity and curves for the track and every object path', () => {
    const sky = scene.nodes.find((n) => n.name === 'skybox')!
    expect(sky.translation).toEqual([0, 0, 0])
    expect(sky.mesh).toBeDefined()
    expect(scene.curves.map((c) => c.name).slice(0, 2)).toEqual(['main track', 'main track (game timing)'])
    expect(scene.curves.filter((c) => (c.extras?.snap as { kind: string }).kind === 'objectPath').length).toBe(4)
    // object paths are stage-global metres ×100: the first linear path starts at its first point × 100
    const lin = st.paths.find((p) => p.path.type === 0)!
    const c = scene.curves.find((x) => (x.extras?.snap as { addr?: string }).addr === `0x${lin.path.addr.toString(16).toUpperCase()}`)!
    expect(c.points[0]).toBeCloseTo(lin.path.points[0]![0] * 100, 2)
    expect(c.points[2]).toBeCloseTo(lin.path.points[0]![2] * 100, 2)
  })
  it('drawn statics become children of their room at position × 100, sharing one mesh', () => {
    const statics = scene.nodes.filter((n) => (n.extras?.snap as { kind?: string })?.kind === 'static')
    expect(statics.length).toBe(4)
    const room2 = scene.nodes.findIndex((n) => n.name === 'Path room 2')
    const s2 = statics.find((n) => n.parent === room2)!
    expect(s2.translation).toEqual([100, 0, 100])
    expect(new Set(statics.map((n) => n.mesh)).size).toBe(1)
    const prim = scene.meshes[s2.mesh!]!.primitives[0]!
    expect(prim.indices.length).toBe(12)
    expect(Array.from(prim.colors!.slice(0, 4))).toEqual([1, 0, 0, 1])
  })
  it('spawns become marker nodes and extras with world positions', () => {
    const spawns = (scene.extras!.snap as { spawns: { id: number; world: number[] }[] }).spawns
    expect(spawns.length).toBe(9)
    const s = spawns[0]!
    expect(s.world).toEqual([200, 0, 300])
    // height map (§3.10): x > 0 lies on the flat patch at 0.5 m; the non-path room's spawn at
    // x = −12 m on the slope 0.1·x − y = 0 → −1.2 m
    expect((s as unknown as { groundY: number }).groundY).toBeCloseTo(50, 4)
    const np = spawns.find((x) => (x as unknown as { group: string }).group === 'nonPath') as unknown as { groundY: number; world: number[] }
    expect(np.world[0]).toBe(-1200)
    expect(np.groundY).toBeCloseTo(-120, 3)
    expect(quatFromEulerExtrinsicXYZ([0, Math.PI, 0]).map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0, 1, 0, 0])
  })
  it('the viewport’s markers (Markers toggle) are exactly the 9 spawns, at their world places; no flag is added to the export', () => {
    const m = markerNodes(scene)
    const spawnNodes = scene.nodes.flatMap((n, i) => ((n.extras?.snap as { kind?: string })?.kind === 'spawn' ? [i] : []))
    expect(spawnNodes).toHaveLength(9)
    expect(m).toEqual(spawnNodes)
    // spawn 0 of path room 0 at (2, 0, 3) m → (200, 0, 300), under the identity 'spawns' group
    expect(scene.nodes[m[0]!]!.translation).toEqual([200, 0, 300])
    expect(scene.nodes[scene.nodes[m[0]!]!.parent]!.name).toBe('spawns')
    // markers come from the empty-leaf rule, so the nodes' exported extras stay as §14.6 leaves them
    expect(scene.nodes.some((n) => 'marker' in (n.extras ?? {}))).toBe(false)
  })
  it('exports a glb the Khronos validator accepts', async () => {
    const glb = await exportGlb(scene)
    const report = await validateBytes(glb)
    expect(report.issues.numErrors).toBe(0)
  })
  it('about 40 rooms and 20 000 triangles build', () => {
    const big = buildSnapRom({ stages: { cave: defaultStage(36, 4, 11, 2) } })
    const s = buildStageScene(parseStage(big.image, 'cave'))
    expect(s.stats.rooms).toBe(40)
    expect(s.stats.triangles).toBe(36 * 242 + 4 * 50 + 32 + 36 * 4)
  })
})

describe('stage material animation (§7.6)', () => {
  const st = parseStage(rom.image, 'beach')
  const { scene } = buildStageScene(st)
  const anim = scene.animations.find((a) => a.name === 'material animation')!
  const npMat = scene.meshes[scene.nodes.find((n) => n.name === 'Non-path room 0')!.mesh!]!.primitives[0]!.material
  it('bakes the tile-0 S scroll into a UV track: offS0 0 → 1 over 60 frames = one texture width', () => {
    expect(anim).toBeDefined()
    expect(anim.loop).toBe(true)
    expect(anim.duration).toBeCloseTo(60 / 30, 6)
    const uv = anim.uvTracks!.find((t) => t.material === npMat)!
    const at = (sec: number) => {
      const i = Array.from(uv.times).findIndex((t) => t >= sec - 1e-6)
      if (Math.abs(uv.times[i]! - sec) < 1e-6) return uv.values[i * 4]!
      const t0 = uv.times[i - 1]!, t1 = uv.times[i]!
      return uv.values[(i - 1) * 4]! + ((uv.values[i * 4]! - uv.values[(i - 1) * 4]!) * (sec - t0)) / (t1 - t0)
    }
    // uls = offS0 · width / scaleS · 4 → UV offset −uls/(4·width) = −offS0
    expect(at(0)).toBeCloseTo(0, 6)
    expect(at(1)).toBeCloseTo(-0.5, 2)
    expect(at(2)).toBeCloseTo(-1, 6)
    // scale unchanged
    expect(uv.values[2]).toBe(1)
  })
  it('flips to the second image after 30 frames (texture swap)', () => {
    const sw = anim.textureSwaps!.find((t) => t.material === npMat)!
    expect(Array.from(sw.times)).toEqual([0, 1])
    expect(sw.textures[0]).toBe(scene.materials[npMat]!.texture)
    expect(sw.textures[1]).not.toBe(sw.textures[0])
    const t1 = scene.textures[sw.textures[1]!]!
    expect([t1.width, t1.height]).toEqual([32, 32])
  })
})

describe('kind-B rooms (node list with per-node material lists, §3.4)', () => {
  const s = defaultStage(2, 0, 2)
  s.pathRooms[1]!.kind = 'B'
  const st = parseStage(buildSnapRom({ stages: { beach: s } }).image, 'beach')
  const { scene, stats } = buildStageScene(st)
  it('dispatches on the render function and places child-node geometry by the node transform', () => {
    const node = scene.nodes.find((n) => n.name === 'Path room 1')!
    expect((node.extras!.snap as { renderKind: string }).renderKind).toBe('B')
    const mesh = scene.meshes[node.mesh!]!
    // the grid (root node, its CI4 material) and the quad (node 1, its own RGBA16 material)
    expect(mesh.primitives.length).toBe(2)
    const quad = mesh.primitives.find((p) => p.indices.length === 6)!
    expect(Array.from(quad.positions.filter((_, i) => i % 3 === 1))).toEqual([200, 200, 200, 200])
    const tex = scene.textures[scene.materials[quad.material]!.texture!]!
    const grid = mesh.primitives.find((p) => p.indices.length === 2 * 2 * 2 * 3)!
    expect(scene.materials[grid.material]!.texture).not.toBe(scene.materials[quad.material]!.texture)
    expect([tex.width, tex.height]).toEqual([32, 32])
    expect(stats.warnings).toEqual([])
  })
})

describe('structure step, then a conversion that reads no ROM byte', () => {
  it('converts the same scene after the ROM image is wiped', () => {
    for (const name of ['river', 'beach']) {
      const image = rom.image.slice()
      const st = parseStage(image, name)
      const models = readStageModels(st)
      // the default fixture stage: 4 path rooms, 1 non-path room and a skybox
      expect(models.rooms.length).toBe(5)
      expect(models.skybox).not.toBeNull()
      image.fill(0xa5) // every byte the conversion could still read is now garbage
      const converted = stageScene(st, models)
      const direct = buildStageScene(parseStage(rom.image, name))
      expect(converted).toEqual(direct)
      expect(converted.scene.animations.map((a) => a.name)).toEqual(['material animation']) // both animate their non-path room
    }
  })
})

describe('spawn names', () => {
  it('Pokédex numbers name Pokémon; other ids are objects', async () => {
    const { spawnName } = await import('../../../../../src-shared/formats/snap/species')
    expect(spawnName(25)).toBe('Pikachu')
    expect(spawnName(0x97)).toBe('Mew')
    expect(spawnName(133)).toBe('Eevee')
    expect(spawnName(1003)).toBe('object 1003')
  })
})
