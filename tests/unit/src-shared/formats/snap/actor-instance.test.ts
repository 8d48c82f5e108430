import { describe, expect, it } from 'vitest'
import { validateBytes } from 'gltf-validator'
import { buildSnapRom } from '../../../../fixtures/snap/build-rom'
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
