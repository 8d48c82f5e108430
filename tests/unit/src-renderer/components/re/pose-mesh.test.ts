// @vitest-environment happy-dom
/**
 * The pose editor with the character's mesh (issue 21 item 4): a game motlist without bone
 * headers opens with the mesh found beside it (`re:findMesh` → `re:openMesh`), shows the mesh
 * scene (LOD 0 skinned, one material per name) instead of the bare skeleton, and passes the mesh
 * as `skeleton` to the timeline, Export .glb and Save As…; without a mesh it says to open one.
 * The main side's answers are built here from the fixtures with the real scene code.
 */
import { describe, expect, it, vi, beforeEach } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow } from '../../../../../src-shared/api'
import type { ReTemplate } from '../../../../../src-shared/api/re'
import { motionSceneWithSkeleton, readMotionFile, readSkeletonSource } from '../../../../../src-shared/formats/re'
import type { Scene } from '../../../../../src-shared/scene/types'
import { characterMesh } from '../../../../fixtures/re/mesh'
import { buildGameMotlist } from '../../../../fixtures/re/game-motlist'
import { skeletonArrays } from '../../../../../src-main/domains/re/skeleton-arrays'

const MOTLIST = '/game/natives/stm/anim/pl1000/game.motlist.663'
const MESH = '/game/natives/stm/character/pl1000/pl1000.mesh.221108797'
const file = readMotionFile(buildGameMotlist())
const source = readSkeletonSource(characterMesh('C'), MESH)
const view = motionSceneWithSkeleton(file, source, { motion: 'none' })
const played = motionSceneWithSkeleton(file, source, { motion: 0 })
const EMPTY = { names: [], parents: new Int32Array(0), hashes: new Uint32Array(0), translations: new Float64Array(0), rotations: new Float64Array(0) }
const TEMPLATE: ReTemplate = { path: MOTLIST, kind: 'motlist', version: 663, motlistVersion: 663, name: 'game_motlist', skeleton: EMPTY, motions: [{ index: 0, id: 100, name: 'game_motion_0', frameCount: 30, frameRate: 60, tracks: 12 }], warnings: [] }

let found: string[] = [MESH]
const calls: { channel: string; req: Record<string, unknown> }[] = []
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'http',
    on: () => () => {},
    pick: async () => '/out/pose.motlist.663',
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      switch (channel) {
        case 're:openTemplate': return TEMPLATE
        case 're:findMesh': return { meshes: found }
        case 're:openMesh': return { path: req.mesh, skeleton: skeletonArrays(source.bones), scene: view.scene, boneNodes: view.boneNodes, warnings: [] }
        case 're:motionScene': return { scene: played.scene, boneNodes: played.boneNodes, warnings: [] }
        case 're:exportGlb': return { path: req.out, bytes: 100, animations: ['game_motion_0'], warnings: [] }
        case 're:savePose': return { path: req.out, version: 663, size: 900, posed: 0, boneCount: 8, unknownBones: [], warnings: [] }
        case 're:lastFolder': return { folder: '/out' }
        case 're:modGamePath': return { gamePath: 'natives/stm/' }
        case 'catalog:sources': return []
        case 'index:start': return { jobId: 1 }
        default: throw new Error(`unexpected ${channel}`)
      }
    },
  },
}))

const scenes: Scene[] = []
vi.mock('../../../../../src-renderer/viewport/viewport', () => ({
  createViewport: () => ({
    setScene: (s: Scene) => scenes.push(s),
    get built() { return { neutral: scenes.at(-1) } },
    player: { clip: -1, setClip() {}, play() {}, pause() {}, setFrame() {}, setLoop() {}, state: () => null },
    camera: { alpha: 1, beta: 1, radius: 3, target: { clone: () => ({}) }, setTarget: () => {} },
    onPlayer: () => () => {},
    onFrame: () => () => {},
    toggles: {}, fly: { multiplier: 1 }, cameraMode: 'orbit', stats: () => null, onPick: () => () => {}, onScene: () => () => {}, onCamera: () => () => {},
    resize: () => {},
    dispose: () => {},
  }),
}))
vi.mock('../../../../../src-renderer/components/re/pose-overlay', () => ({
  PoseOverlay: class {
    attach() {}
    setPose() {}
    select() {}
    viewAxis() { return [0, 0, 1] }
    dispose() {}
  },
}))

const { default: PoseEditor } = await import('../../../../../src-renderer/components/re/PoseEditor.vue')

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}
const $ = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement
const click = async (id: string) => {
  $(id).click()
  await settle()
}
function mount() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const a: AssetRow = { id: 1, sourceId: 1, parent: null, kind: 're-motlist', name: 'game', locator: {}, metadata: {}, childCount: 0, sourcePath: MOTLIST }
  const app = createApp({ render: () => h(PoseEditor, { asset: a, source: null }) })
  app.use(pinia)
  app.mount('#app')
  return app
}

describe('pose editor with the character mesh', () => {
  beforeEach(() => {
    calls.length = 0
    scenes.length = 0
    found = [MESH]
    document.body.innerHTML = '<div id="app"></div>'
    localStorage.clear()
  })

  it('a motlist without bone headers opens on the mesh found beside it, shown skinned; the mesh goes with play, export and save', async () => {
    const app = mount()
    await settle()
    expect(calls.slice(0, 3).map((c) => c.channel)).toEqual(['re:openTemplate', 're:findMesh', 're:openMesh'])
    expect(calls[2]!.req).toEqual({ template: MOTLIST, mesh: MESH })
    expect($('re-bone-list').querySelectorAll('[data-bone]')).toHaveLength(8)
    const shown = scenes.at(-1)!
    expect(shown.meshes).toHaveLength(1)
    expect(shown.materials.map((m) => m.name)).toEqual(['body_mat', 'head_mat'])
    expect(document.querySelector('.caption')!.textContent).toContain('pl1000.mesh.221108797')
    await click('re-timeline-play')
    expect(calls.find((c) => c.channel === 're:motionScene')!.req).toEqual({ path: MOTLIST, motion: 0, skeleton: MESH })
    expect(scenes.at(-1)!.meshes).toHaveLength(1)
    await click('re-export-glb')
    expect(calls.find((c) => c.channel === 're:exportGlb')!.req).toMatchObject({ path: MOTLIST, skeleton: MESH })
    await click('re-save')
    expect(calls.find((c) => c.channel === 're:savePose')!.req).toMatchObject({ template: MOTLIST, skeleton: MESH })
    app.unmount()
  })

  it('no mesh found: the error says to open the mesh; Open mesh… then opens the motlist on it', async () => {
    found = []
    const app = mount()
    await settle()
    expect($('re-error').textContent).toMatch(/no bone headers.*Open mesh…/)
    expect(calls.some((c) => c.channel === 're:openMesh')).toBe(false)
    await click('re-open-mesh')
    expect(calls.find((c) => c.channel === 're:openMesh')!.req).toEqual({ template: MOTLIST, mesh: '/out/pose.motlist.663' })
    expect($('re-bone-list').querySelectorAll('[data-bone]')).toHaveLength(8)
    expect(scenes.at(-1)!.meshes).toHaveLength(1)
    app.unmount()
  })
})
