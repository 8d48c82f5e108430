/**
 * The pose editor's mesh channels (src-shared/api/re.ts): `re:findMesh` (the motlist's folder,
 * then the catalog's meshes of the same character), `re:openMesh` (skeleton scene + LOD 0 skinned,
 * the editor's bones), and `--skeleton` on `re:sampleMotion`, `re:motionScene`, `re:savePose`,
 * `re:exportGlb` and `re:importGltf` for a motlist without bone headers.
 */
import { describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { indexPaths } from '../../../../src-main/indexer/indexer'
import { readMotionFile } from '../../../../src-shared/formats/re'
import { useServices } from '../../../helpers/services'
import { glbJson } from '../../../helpers/glb'
import { characterMesh } from '../../../fixtures/re/mesh'
import { buildGameMotlist } from '../../../fixtures/re/game-motlist'
import { buildTemplateMotlist } from '../../../fixtures/re/template'

const NAMES = ['root', 'COG', 'Hip', 'Spine_0', 'Head', 'L_Forearm', 'l_arm_wrist', 'R_Toe']
const t = useServices('mb-re-mesh-svc-')

function put(rel: string, b: Uint8Array): string {
  const p = path.join(t.dir, ...rel.split('/'))
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, b)
  return p
}

describe('re:findMesh', () => {
  it('the folder on disk first, then the indexed meshes of the same character', async () => {
    const motlist = put('natives/x64/animation/player/pl1000/pl1000_walk.motlist.85', buildGameMotlist({ version: 85 }))
    const beside = put('natives/x64/animation/player/pl1000/extra.mesh.1808312334', characterMesh('A'))
    const body = put('natives/x64/character/player/pl1000/pl1000/pl1000.mesh.1808312334', characterMesh('A'))
    put('natives/x64/character/enemy/em0000/em0000.mesh.1808312334', characterMesh('A'))
    t.svc.ctx.grantPath(t.dir)
    expect((await t.svc.invoke('re:findMesh', { path: motlist })).meshes).toEqual([beside])
    await indexPaths(t.cat, [path.join(t.dir, 'natives')])
    expect((await t.svc.invoke('re:findMesh', { path: motlist })).meshes).toEqual([beside, body])
  })
})

describe('a motlist without bone headers, with its mesh', () => {
  it('re:openMesh gives the mesh bones and a scene with LOD 0 skinned over them', async () => {
    const motlist = put('m/game.motlist.663', buildGameMotlist())
    const mesh = put('m/pl.mesh.221108797', characterMesh('C'))
    t.svc.ctx.grantPath(t.dir)
    const r = await t.svc.invoke('re:openMesh', { template: motlist, mesh })
    expect(r.skeleton.names).toEqual(NAMES)
    expect(r.scene.meshes).toHaveLength(1)
    expect(r.scene.meshes[0]!.primitives).toHaveLength(2)
    expect(r.scene.materials.map((m) => m.name)).toEqual(['body_mat', 'head_mat'])
    expect(r.boneNodes.map((n) => r.scene.nodes[n]!.name)).toEqual(NAMES)
    expect(r.scene.animations).toHaveLength(0)
    // a template with its own bone headers keeps them as the editor's bones
    const tmpl = put('m/tmpl.motlist.663', buildTemplateMotlist())
    const own = await t.svc.invoke('re:openMesh', { template: tmpl, mesh })
    expect(own.skeleton.names).toHaveLength(40)
    expect(own.boneNodes).toHaveLength(40)
  })

  it('sampleMotion, motionScene, savePose and exportGlb take the bones from `skeleton`', async () => {
    const motlist = put('m/game.motlist.663', buildGameMotlist())
    const mesh = put('m/pl.mesh.221108797', characterMesh('C'))
    t.svc.ctx.grantPath(t.dir)
    const s = await t.svc.invoke('re:sampleMotion', { path: motlist, motion: 0, frame: 3, skeleton: mesh })
    expect(s.rotations).toHaveLength(NAMES.length * 4)
    expect([...s.animated]).toEqual(NAMES.map(() => 1))
    const m = await t.svc.invoke('re:motionScene', { path: motlist, motion: 1, skeleton: mesh })
    expect(m.scene.animations).toHaveLength(1)
    expect(m.scene.meshes).toHaveLength(1)
    expect(m.boneNodes).toHaveLength(NAMES.length)
    const out = path.join(t.dir, 'out', 'pose.motlist.663')
    const saved = await t.svc.invoke('re:savePose', { template: motlist, out, skeleton: mesh, pose: { name: 'p', bones: ['Head'], rotations: new Float64Array([0, 0, 0, 1]) } })
    expect(saved.boneCount).toBe(NAMES.length)
    const written = readMotionFile(new Uint8Array(fs.readFileSync(saved.path)))
    expect(written.kind === 'motlist' && written.motlist.skeleton).toBeNull() // the template's layout: no bone headers
    const glb = path.join(t.dir, 'out', 'game.glb')
    await t.svc.invoke('re:exportGlb', { path: motlist, out: glb, skeleton: mesh })
    const j = glbJson(new Uint8Array(fs.readFileSync(glb)))
    expect(j.meshes).toHaveLength(1)
    expect(j.animations).toHaveLength(2)
    // Import glTF… back onto the motlist: the preview plays on the mesh's bones, the saved file has no headers
    const imp = await t.svc.invoke('re:importGltf', { template: motlist, gltf: glb, animation: 'game_motion_1', skeleton: mesh, out: path.join(t.dir, 'out', 'back') })
    expect(imp.tracks).toBeGreaterThan(0)
    expect(imp.scene.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(NAMES))
    expect(imp.scene.animations[0]!.channels.length).toBe(imp.tracks)
    const back = readMotionFile(new Uint8Array(fs.readFileSync(imp.path!)))
    expect(back.kind === 'motlist' && back.motlist.skeleton).toBeNull()
  })
})
