import { describe, expect, it } from 'vitest'
import { validateBytes } from 'gltf-validator'
import { buildSnapRom, defaultStage } from '../../../../fixtures/snap/build-rom'
import { findStageActors, loadActor } from '../../../../../src-shared/formats/snap/actors'
import { buildActorScene } from '../../../../../src-shared/formats/snap/actor-scene'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { buildStageScene } from '../../../../../src-shared/formats/snap/stage-scene'
import { addActorInstances } from '../../../../../src-shared/formats/snap/actor-instance'
import { sampleChannel } from '../../../../../src-shared/scene/sample'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { exportGlb } from '../../../../../src-shared/export/gltf'

describe('actors in the stage scene (the stage view plays one combined clip)', () => {
  const rom = buildSnapRom()
  const st = parseStage(rom.image, 'beach')
  const { scene } = buildStageScene(st)
  const material = scene.animations[0]!
  const res = addActorInstances(scene, st, rom.image, { stageClip: true })

  it('instances, the Zero-One ride and a first `stage animation` clip', () => {
    expect(res).toMatchObject({ instances: 2, actors: 3, zeroOne: true })
    expect(scene.animations.map((a) => a.name.replace(/0x[0-9A-F]+/, 'H'))).toEqual(['stage animation', 'material animation', 'zero-one ride', 'Pikachu H', 'Raichu H', 'Raichu H', 'zero-one H'])
    expect(validateScene(scene)).toBe(scene)
    const inst = scene.nodes.find((n) => n.name === 'spawn 2 Raichu')!
    const meshNode = (inst.extras!.snap as { meshNode: number }).meshNode
    expect(scene.nodes[meshNode]!.name).toBe('spawn 2 Raichu mesh')
    expect(scene.nodes[meshNode]!.skin).toBeDefined()
  })
  it('each actor clip repeats on its own period over the longest part (the material clip here)', () => {
    const clip = scene.animations[0]!
    expect(clip.duration).toBeCloseTo(Math.max(material.duration, 20 / 30), 6)
    const raichuNode0 = scene.nodes.findIndex((n, i) => n.name === 'node 0' && scene.nodes[n.parent]?.name === 'spawn 2 Raichu' && i > 0)
    const ty = clip.channels.find((c) => c.node === raichuNode0 && c.path === 'translation')!
    const v = [0, 0, 0]
    // node 0 Y: 0 → 10 over 10 frames, held to frame 20, then the clip repeats: frame 25 is frame 5 again
    sampleChannel(ty, 25 / 30, v)
    expect(v[1]).toBeCloseTo(5, 4)
    sampleChannel(ty, 15 / 30, v)
    expect(v[1]).toBeCloseTo(10, 4)
  })
  it('exports with 0 validator errors', async () => {
    const rep = await validateBytes(await exportGlb(scene))
    expect(rep.issues.numErrors, JSON.stringify(rep.issues.messages.slice(0, 5))).toBe(0)
  })
})

describe('an actor spawned twice is one model with two instances (the assembler’s appendModel)', () => {
  // the Beach with path room 0's spawn made a second Raichu (id 26; path room 1 spawns the first)
  const stage = defaultStage(6, 2, 8, 0)
  stage.pathRooms[0]!.spawns![0]!.id = 26
  const rom = buildSnapRom({ stages: { beach: stage } })
  const st = parseStage(rom.image, 'beach')
  const { scene } = buildStageScene(st)
  const before = { meshes: scene.meshes.length, materials: scene.materials.length, textures: scene.textures.length }
  const res = addActorInstances(scene, st, rom.image)
  const raichuAlone = buildActorScene(loadActor(findStageActors(st, rom.image), findStageActors(st, rom.image).actors.find((a) => a.id === 26)!)).scene
  const zeroOneAlone = buildActorScene(loadActor(findStageActors(st, rom.image), findStageActors(st, rom.image).actors.find((a) => a.common && a.id === 0)!)).scene

  it('two Raichu instances share one mesh; each has its own skin over its own joints', () => {
    expect(res).toMatchObject({ instances: 2, actors: 2, zeroOne: true })
    const inst = scene.nodes.filter((n) => (n.extras?.snap as { kind?: string; name?: string } | undefined)?.kind === 'actorInstance')
    expect(inst.map((n) => n.name)).toEqual(['spawn 0 Raichu', 'spawn 2 Raichu']) // spawns in export order (path room 0's, then room 1's after its path object)
    const meshNodes = inst.map((n) => scene.nodes[(n.extras!.snap as { meshNode: number }).meshNode]!)
    expect(meshNodes[0]!.mesh).toBe(meshNodes[1]!.mesh)
    expect(meshNodes[0]!.skin).not.toBe(meshNodes[1]!.skin)
    const [j0, j1] = meshNodes.map((m) => scene.skins[m.skin!]!.joints)
    expect(j0!.length).toBe(2)
    expect(j0!.some((j) => j1!.includes(j))).toBe(false)
    expect(scene.meshes.filter((m) => m.name === 'Raichu mesh').length).toBe(1)
  })
  it('the stage gains exactly one copy of each actor’s meshes, materials and textures (Raichu once, the Zero-One once)', () => {
    expect(scene.meshes.length - before.meshes).toBe(raichuAlone.meshes.length + zeroOneAlone.meshes.length)
    expect(scene.materials.length - before.materials).toBe(raichuAlone.materials.length + zeroOneAlone.materials.length)
    expect(scene.textures.length - before.textures).toBe(raichuAlone.textures.length + zeroOneAlone.textures.length)
    expect(validateScene(scene)).toBe(scene)
  })
  it('the glb has one Raichu mesh and 0 validator errors', async () => {
    const glb = await exportGlb(scene)
    const rep = await validateBytes(glb)
    expect(rep.issues.numErrors, JSON.stringify(rep.issues.messages.slice(0, 5))).toBe(0)
    const dv = new DataView(glb.buffer, glb.byteOffset)
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + dv.getUint32(12, true)))) as { meshes: { name: string }[]; skins: unknown[] }
    expect(json.meshes.filter((m) => m.name === 'Raichu mesh').length).toBe(1)
  })
})
