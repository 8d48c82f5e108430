// @vitest-environment happy-dom
import { describe, expect, it, vi, beforeEach } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow } from '../../../../../src-shared/api'
import type { ReTemplate } from '../../../../../src-shared/api/re'
import { eulerToQuat, quatAngle, quatCanonical, quatMultiply, quatConjugate, boneHash, skeletonScene, type Quat } from '../../../../../src-shared/formats/re'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'
import type { Scene } from '../../../../../src-shared/scene/types'

const sk = fixtureSkeleton()
const TEMPLATE: ReTemplate = {
  path: '/mods/tmpl.motlist.663',
  kind: 'motlist',
  version: 663,
  motlistVersion: 663,
  name: 'fixture_template',
  skeleton: {
    names: sk.map((b) => b.name),
    parents: Int32Array.from(sk.map((b) => b.parent)),
    hashes: Uint32Array.from(sk.map((b) => boneHash(b.name))),
    translations: Float64Array.from(sk.flatMap((b) => b.translation)),
    rotations: Float64Array.from(sk.flatMap((b) => quatCanonical(b.rotation))),
  },
  motions: [{ index: 0, id: 155, name: 'fixture_idle', frameCount: 30, frameRate: 60, tracks: 52 }],
  warnings: [],
}

/** What re:importGltf sends back: the template skeleton scene with a clip turning Head 90° about Y over 30 frames. */
const IMPORTED = (() => {
  const { scene, boneNodes } = skeletonScene(sk.map((b, i) => ({ index: i, name: b.name, hash: boneHash(b.name), parent: b.parent, translation: b.translation, rotation: quatCanonical(b.rotation), storedIndex: i })))
  const head = boneNodes[sk.findIndex((b) => b.name === 'Head')]!
  const s = Math.SQRT1_2
  scene.animations.push({ name: 'turn', duration: 0.5, frameRate: 60, channels: [{ node: head, path: 'rotation', times: new Float32Array([0, 0.5]), values: new Float32Array([0, 0, 0, 1, 0, s, 0, s]), interpolation: 'LINEAR' }] })
  return { scene, boneNodes, animations: ['turn'], animation: 'turn', frameCount: 30, frameRate: 60, tracks: 1, maxError: 3e-8, unmatchedNodes: ['Tail'], warnings: [] }
})()

const calls: { channel: string; req: Record<string, unknown> }[] = []
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'http',
    on: () => () => {},
    pick: async () => '/out/my_pose.motlist.663',
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      switch (channel) {
        case 're:openTemplate': return TEMPLATE
        case 're:findMesh': return { meshes: [] }
        case 're:lastFolder': return { folder: '/out' }
        case 're:savePose': return { path: req.out, version: 663, size: 1234, posed: 2, boneCount: 40, unknownBones: [], warnings: [] }
        case 're:openPose': return { path: req.path, poses: [{ name: 'P1', joints: [{ name: 'Head', euler: [0, 0.5, 0] }, { name: 'NotABone', euler: [1, 0, 0] }] }, { name: 'P2', joints: [] }] }
        case 'catalog:sources': return []
        case 're:modGamePath': return { gamePath: 'natives/stm/_chainsaw/animation/ch/ch0_pose.motlist.663', author: 'Ada' }
        case 're:exportGlb': return { path: req.out, bytes: 100, animations: ['fixture_idle'], warnings: [] }
        case 're:importGltf': return { ...IMPORTED, ...(req.out ? { path: `${req.out}.motlist.663`, size: 99 } : {}) }
        case 're:packMod': return { path: req.out, size: 10, gamePath: req.gamePath, entries: ['modinfo.ini', req.gamePath] }
        case 'index:start': return { jobId: 1 }
        case 're:motionScene': return { scene: IMPORTED.scene, boneNodes: IMPORTED.boneNodes, warnings: [] }
        default: throw new Error(`unexpected ${channel}`)
      }
    },
  },
}))

/**
 * The 3D view needs WebGL; stand-ins record what the editor asks of the viewport (the skeleton
 * scene it shows) and of the pose overlay, and let tests drag.
 */
const fakeView: { events: null | { pick(b: number): void; dragStart(): void; drag(q: Quat): void; dragEnd(): void }; selected: number; worlds: number; scenes: Scene[]; disposed: number; last: number[] } = { events: null, selected: -1, worlds: 0, scenes: [], disposed: 0, last: [] }
/** The viewport's player as the timeline drives it (clip, frame, play state), telling its listener. */
const fakePlayer = {
  clip: -1, time: 0, playing: false, loop: true, listener: null as null | ((st: unknown) => void),
  get frame() { return Math.round(this.time * 60) },
  get animation() { return this.clip >= 0 ? (fakeView.scenes.at(-1)?.animations[this.clip] ?? null) : null },
  state() { return { clip: this.clip, time: this.time, frame: this.frame, frameCount: 30, playing: this.playing, speed: 1, loop: this.loop } },
  emit() { this.listener?.(this.state()) },
  setClip(i: number) { this.clip = i; this.time = 0; this.emit() },
  play() { this.playing = true; this.emit() },
  pause() { this.playing = false; this.emit() },
  setFrame(f: number) { this.time = f / 60; this.emit() },
  setLoop(l: boolean) { this.loop = l; this.emit() },
}
vi.mock('../../../../../src-renderer/viewport/viewport', () => ({
  createViewport: () => ({
    setScene: (s: Scene) => {
      fakeView.scenes.push(s)
      fakePlayer.setClip(s.animations.length ? 0 : -1)
    },
    get built() { return { neutral: fakeView.scenes.at(-1) } },
    player: fakePlayer,
    camera: { alpha: 1, beta: 1, radius: 3, target: { clone: () => ({}) }, setTarget: () => {} },
    onPlayer: (l: (st: unknown) => void) => ((fakePlayer.listener = l), () => (fakePlayer.listener = null)),
    onFrame: () => () => {},
    // what the shared render panel asks of any viewport
    toggles: {}, fly: { multiplier: 1 }, cameraMode: 'orbit', stats: () => null, onPick: () => () => {}, onScene: () => () => {}, onCamera: () => () => {},
    resize: () => {},
    // the view as a PNG: here only the 8-byte PNG signature
    screenshot: async () => 'data:image/png;base64,iVBORw0KGgo=',
    dispose: () => fakeView.disposed++,
  }),
}))
vi.mock('../../../../../src-renderer/components/re/pose-overlay', () => ({
  PoseOverlay: class {
    constructor(_vp: unknown, events: typeof fakeView.events) {
      fakeView.events = events
    }
    attach() {}
    setPose(r: Float64Array) {
      fakeView.worlds++
      fakeView.last = Array.from(r)
    }
    select(b: number) {
      fakeView.selected = b
    }
    viewAxis() {
      return [0, 0, 1]
    }
    dispose() {}
  },
}))

const { default: PoseEditor } = await import('../../../../../src-renderer/components/re/PoseEditor.vue')
const { useCatalogStore } = await import('../../../../../src-renderer/stores/catalog')
const { useNodeActionsStore } = await import('../../../../../src-renderer/stores/node-actions')
const { assetRow } = await import('../../../../../src-renderer/stores/catalog-tree')

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
const euler = () => ['x', 'y', 'z'].map((a) => Number(($(`re-euler-${a}`) as HTMLInputElement).value))
function asset(kind: AssetRow['kind'], locator: Record<string, unknown> = {}): AssetRow {
  return { id: 1, sourceId: 1, parent: null, kind, name: 'x', locator, metadata: {}, childCount: 0, sourcePath: kind.startsWith('emv') ? '/mods/poses.json' : TEMPLATE.path }
}

function mount(a: AssetRow) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const app = createApp({ render: () => h(PoseEditor, { asset: a, source: null }) })
  app.use(pinia)
  app.mount('#app')
  return app
}

describe('RE pose editor', () => {
  beforeEach(() => {
    calls.length = 0
    document.body.innerHTML = '<div id="app"></div>'
    localStorage.clear()
  })

  it('opens the template, searches bones, edits Euler fields, gizmo drags are one undo step, saves', async () => {
    const app = mount(asset('re-motion', { motion: 0 }))
    await settle()
    expect(calls[0]).toMatchObject({ channel: 're:openTemplate', req: { path: TEMPLATE.path } })
    expect($('re-bone-list').querySelectorAll('[data-bone]')).toHaveLength(40)
    // the shared viewport shows the skeleton as a neutral scene: a node per bone, one skin
    const shown = fakeView.scenes.at(-1)!
    expect(shown.nodes.map((n) => n.name).sort()).toEqual(sk.map((b) => b.name).sort())
    expect(shown.skins[0]!.joints).toHaveLength(40)
    // search
    const search = $('re-bone-search') as HTMLInputElement
    search.value = 'forearm'
    search.dispatchEvent(new Event('input'))
    await settle()
    expect([...$('re-bone-list').querySelectorAll('[data-bone]')].map((e) => e.textContent!.trim())).toEqual(['L_Forearm', 'R_Forearm'])
    search.value = ''
    search.dispatchEvent(new Event('input'))
    await settle()
    // select Head in the tree: its reference Euler (0.1 rad about X) shows in degrees
    const head = sk.findIndex((b) => b.name === 'Head')
    ;($('re-bone-list').querySelector(`[data-bone="${head}"]`) as HTMLElement).click()
    await settle()
    expect($('re-selected-bone').textContent).toBe('Head')
    expect(fakeView.selected).toBe(head)
    expect(euler()[0]).toBeCloseTo(5.73, 2)
    expect($('re-dirty')).toBeNull()
    // numeric edit: Y = 30°
    const y = $('re-euler-y') as HTMLInputElement
    y.value = '30'
    y.dispatchEvent(new Event('change'))
    await settle()
    expect(euler()[1]).toBeCloseTo(30, 3)
    expect($('re-dirty')).not.toBeNull()
    // a gizmo drag with many updates
    const qDrag = eulerToQuat([0.2, 0.9, 0.1])
    fakeView.events!.dragStart()
    for (let k = 1; k <= 10; k++) fakeView.events!.drag(eulerToQuat([0.02 * k, 0.09 * k, 0.01 * k]))
    fakeView.events!.dragEnd()
    await settle()
    expect(euler()[1]).toBeCloseTo(0.9 * (180 / Math.PI), 2)
    // one Ctrl+Z undoes the whole drag, the next one the numeric edit
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true }))
    await settle()
    expect(euler()[1]).toBeCloseTo(30, 3)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true }))
    await settle()
    expect(euler()[1]).toBeCloseTo(0, 6)
    expect($('re-dirty')).toBeNull()
    // Ctrl+Shift+Z redoes twice
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Z', ctrlKey: true, shiftKey: true }))
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Z', ctrlKey: true, shiftKey: true }))
    await settle()
    expect(euler()[1]).toBeCloseTo(0.9 * (180 / Math.PI), 2)
    // radians
    ;(document.querySelector('input[type="radio"][value="rad"]') as HTMLInputElement).click()
    await settle()
    expect(euler()[1]).toBeCloseTo(0.9, 4)
    // Save As…: sends the changed bones to re:savePose and clears the dirty mark
    await click('re-save')
    const save = calls.find((c) => c.channel === 're:savePose')!
    expect(save.req).toMatchObject({ template: TEMPLATE.path, out: '/out/my_pose.motlist.663' })
    const pose = save.req.pose as { bones: string[]; rotations: Float64Array }
    expect(pose.bones).toEqual(['Head'])
    expect(pose.rotations).toBeInstanceOf(Float64Array)
    expect(quatAngle(Array.from(pose.rotations) as Quat, qDrag)).toBeLessThan(1e-9)
    expect($('re-dirty')).toBeNull()
    expect($('re-status').textContent).toContain('Saved /out/my_pose.motlist.663')
    expect(localStorage.getItem('modbench.re.lastFolder')).toBe('/out')
    // reset bone
    await click('re-reset-bone')
    expect(euler()[1]).toBeCloseTo(0, 6)
    const disposed = fakeView.disposed
    app.unmount()
    expect(fakeView.disposed).toBe(disposed + 1)
  })

  it('keys: R X 90 Enter is one undo step, Esc cancels, Alt+R clears, Ctrl+C / Ctrl+Shift+V flip-paste, Ctrl+S saves', async () => {
    const app = mount(asset('re-motlist'))
    await settle()
    const key = (k: string, o: KeyboardEventInit = {}) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, code: /^[a-z]$/i.test(k) ? `Key${k.toUpperCase()}` : '', ...o }))
    const fa = sk.findIndex((b) => b.name === 'L_Forearm')
    const fb = sk.findIndex((b) => b.name === 'R_Forearm')
    const q0 = quatCanonical(sk[fa]!.rotation)
    const at = (b: number) => fakeView.last.slice(b * 4, b * 4 + 4) as Quat
    // R with no bone selected does nothing
    key('r')
    await settle()
    expect($('re-rotate-hud')).toBeNull()
    ;($('re-bone-list').querySelector(`[data-bone="${fa}"]`) as HTMLElement).click()
    await settle()
    for (const k of ['r', 'x', '9', '0']) key(k)
    await settle()
    expect($('re-rotate-hud').textContent).toContain('Rotate local X: 90°')
    // live: q0 · Rx(90°)
    const want = quatCanonical(quatMultiply(q0, [Math.SQRT1_2, 0, 0, Math.SQRT1_2]))
    expect(quatAngle(at(fa), want)).toBeLessThan(1e-9)
    key('Enter')
    await settle()
    expect($('re-rotate-hud')).toBeNull()
    expect($('re-dirty')).not.toBeNull()
    // one Ctrl+Z undoes the whole key rotation
    key('z', { ctrlKey: true })
    await settle()
    expect(quatAngle(at(fa), q0)).toBeLessThan(1e-9)
    expect($('re-dirty')).toBeNull()
    // Esc cancels: the pose is back, no undo step
    for (const k of ['r', 'z', '4', '5']) key(k)
    await settle()
    expect(quatAngle(at(fa), q0)).toBeGreaterThan(0.5)
    key('Escape')
    await settle()
    expect(quatAngle(at(fa), q0)).toBeLessThan(1e-9)
    expect(($('re-undo') as HTMLButtonElement).disabled).toBe(true)
    // a rotation, then copy it and flip-paste it onto R_Forearm: (x, −y, −z, w) of the delta
    for (const k of ['r', 'y', '3', '0', 'Enter']) key(k)
    key('c', { ctrlKey: true })
    key('V', { ctrlKey: true, shiftKey: true })
    await settle()
    expect(fakeView.selected).toBe(fb)
    expect($('re-status').textContent).toContain('Flip-pasted L_Forearm onto R_Forearm')
    const d = quatMultiply(quatConjugate(q0), at(fa))
    const refB = quatCanonical(sk[fb]!.rotation)
    expect(quatAngle(at(fb), quatMultiply(refB, [d[0], -d[1], -d[2], d[3]]))).toBeLessThan(1e-9)
    // Alt+R clears R_Forearm back to its reference
    key('r', { altKey: true })
    await settle()
    expect(quatAngle(at(fb), refB)).toBeLessThan(1e-9)
    // typing in the search field keeps its keys
    const search = $('re-bone-search') as HTMLInputElement
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', bubbles: true }))
    await settle()
    expect($('re-rotate-hud')).toBeNull()
    // keys typed outside the editor (another panel of the app) are not the editor's
    const outside = document.createElement('div')
    document.body.appendChild(outside)
    outside.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', code: 'KeyR', bubbles: true }))
    await settle()
    expect($('re-rotate-hud')).toBeNull()
    // Ctrl+S saves (through the picker)
    key('s', { ctrlKey: true })
    await settle()
    expect(calls.some((c) => c.channel === 're:savePose')).toBe(true)
    app.unmount()
  })

  it('timeline: plays a motion through the viewport player, scrubs, uses the frame (one undo step), leaves on edits', async () => {
    const app = mount(asset('re-motlist'))
    await settle()
    const shownBefore = fakeView.scenes.length
    await click('re-timeline-play')
    expect(calls.find((c) => c.channel === 're:motionScene')?.req).toEqual({ path: TEMPLATE.path, motion: 0 })
    expect(fakeView.scenes.length).toBe(shownBefore + 1)
    expect(fakePlayer.playing).toBe(true)
    expect($('re-timeline-play').textContent).toContain('Pause')
    const scrub = $('re-timeline-scrub') as HTMLInputElement
    scrub.value = '15'
    scrub.dispatchEvent(new Event('input'))
    await settle()
    expect(fakePlayer.playing).toBe(false)
    expect($('re-timeline-frame').textContent).toContain('frame 15 / 30 · 0.25 s')
    // Use this frame: Head is halfway through its 90° Y turn
    await click('re-timeline-use')
    const head = sk.findIndex((b) => b.name === 'Head')
    const s = Math.sin(Math.PI / 8), c = Math.cos(Math.PI / 8)
    expect(quatAngle(fakeView.last.slice(head * 4, head * 4 + 4) as Quat, [0, s, 0, c])).toBeLessThan(1e-6)
    expect(fakePlayer.clip).toBe(-1) // back to the pose
    expect($('re-status').textContent).toContain('motion 0 frame 15')
    expect($('re-dirty')).not.toBeNull()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true }))
    await settle()
    expect($('re-dirty')).toBeNull()
    // the loaded motion plays again without another request; an edit leaves it
    const requests = calls.filter((x) => x.channel === 're:motionScene').length
    await click('re-timeline-play')
    expect(calls.filter((x) => x.channel === 're:motionScene').length).toBe(requests)
    expect(fakePlayer.clip).toBe(0)
    await click('re-reset-all')
    await click('re-mirror')
    ;($('re-bone-list').querySelector(`[data-bone="${head}"]`) as HTMLElement).click()
    await settle()
    await click('re-reset-bone')
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', code: 'KeyR' }))
    window.dispatchEvent(new KeyboardEvent('keydown', { key: '5' }))
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }))
    await settle()
    expect(fakePlayer.clip).toBe(-1)
    app.unmount()
  })

  it('mirror and reset all', async () => {
    const app = mount(asset('re-motlist'))
    await settle()
    const l = sk.findIndex((b) => b.name === 'L_Forearm')
    const r = sk.findIndex((b) => b.name === 'R_Forearm')
    ;($('re-bone-list').querySelector(`[data-bone="${l}"]`) as HTMLElement).click()
    await settle()
    const x = $('re-euler-x') as HTMLInputElement
    x.value = '40'
    x.dispatchEvent(new Event('change'))
    await settle()
    await click('re-mirror')
    ;($('re-bone-list').querySelector(`[data-bone="${r}"]`) as HTMLElement).click()
    await settle()
    expect(euler()[0]).toBeCloseTo(40, 1)
    await click('re-reset-all')
    expect(euler()[0]).toBeCloseTo(0, 6)
    app.unmount()
  })

  it('an EMV pose entry opens with the last template, applies the named pose, warns about unknown joints', async () => {
    localStorage.setItem('modbench.re.lastTemplate', TEMPLATE.path)
    const app = mount(asset('emv-pose-entry', { pose: 'P1' }))
    await settle()
    // (the glTF panel asks for the template's remembered mod game path on its own)
    expect(calls.map((c) => c.channel).filter((c) => c !== 're:modGamePath')).toEqual(['re:openTemplate', 're:findMesh', 're:openPose'])
    expect($('re-status').textContent).toContain('Applied pose "P1" to 1 bone')
    expect(document.body.textContent).toContain('NotABone')
    expect(($('re-pose-choice') as HTMLSelectElement).value).toBe('P1')
    const head = sk.findIndex((b) => b.name === 'Head')
    ;($('re-bone-list').querySelector(`[data-bone="${head}"]`) as HTMLElement).click()
    await settle()
    expect(euler()[1]).toBeCloseTo(0.5 * (180 / Math.PI), 3)
    // choosing the other pose replaces this one (Head back to its reference), it does not mix them
    const choice = $('re-pose-choice') as HTMLSelectElement
    choice.value = 'P2'
    choice.dispatchEvent(new Event('change'))
    await settle()
    expect(euler()[1]).toBeCloseTo(0, 6)
    expect(euler()[0]).toBeCloseTo(5.73, 2)
    app.unmount()
  })

  it('the tree’s Export… on a motion (posted before the editor opened) exports it once the template is open', async () => {
    const a = asset('re-motion', { motion: 0 })
    const pinia = createPinia()
    setActivePinia(pinia)
    // what TreeContextMenu does for a kind without a scene builder: select, then post
    useCatalogStore().selected = assetRow(a, 2)
    useNodeActionsStore().post('a1', 'export')
    const app = createApp({ render: () => h(PoseEditor, { asset: a, source: null }) })
    app.use(pinia)
    app.mount('#app')
    await settle()
    expect(calls.map((c) => c.channel).indexOf('re:exportGlb')).toBeGreaterThan(calls.map((c) => c.channel).indexOf('re:openTemplate'))
    expect(calls.filter((c) => c.channel === 're:exportGlb').map((c) => c.req)).toEqual([{ path: TEMPLATE.path, out: '/out/my_pose.motlist.663', motion: 0, overwrite: true }])
    expect(useNodeActionsStore().pending).toBeNull()
    app.unmount()
  })

  it('Import glTF… plays the imported clip on the skeleton before saving; Export .glb; Save as mod… (name, author, version, description, screenshot of the view; defaults from the replaced game file, the last author)', async () => {
    const app = mount(asset('re-motion', { motion: 0 }))
    await settle()
    await click('re-export-glb')
    expect(calls.find((c) => c.channel === 're:exportGlb')!.req).toMatchObject({ path: TEMPLATE.path, motion: 0 })
    // Save as mod… needs a saved pose first
    expect(($('re-save-mod') as HTMLButtonElement).disabled).toBe(true)
    await click('re-import-gltf')
    expect(calls.find((c) => c.channel === 're:importGltf')!.req).toEqual({ template: TEMPLATE.path, gltf: '/out/my_pose.motlist.663', animation: undefined })
    expect($('re-status').textContent).toMatch(/Previewing "turn" \(30 frames at 60 fps, 1 tracks.*1 node\(s\) match no bone: Tail\. Nothing is saved yet\./)
    // frame 15 of 30: Head at 45° about Y; the other bones at their reference; the edited pose is untouched
    const slider = $('re-preview-frame') as HTMLInputElement
    slider.value = '15'
    slider.dispatchEvent(new Event('input'))
    await settle()
    const head = sk.findIndex((b) => b.name === 'Head')
    expect(quatAngle(fakeView.last.slice(head * 4, head * 4 + 4) as Quat, [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)])).toBeLessThan(1e-6)
    const neck = sk.findIndex((b) => b.name === 'Neck_0')
    expect(quatAngle(fakeView.last.slice(neck * 4, neck * 4 + 4) as Quat, quatCanonical(sk[neck]!.rotation))).toBeLessThan(1e-9)
    expect($('re-dirty')).toBeNull()
    await click('re-save-imported')
    expect(calls.filter((c) => c.channel === 're:importGltf').at(-1)!.req).toMatchObject({ animation: 'turn', out: '/out/my_pose.motlist.663' })
    // back to the pose: the editor shows its own pose again
    await click('re-preview-close')
    expect(quatAngle(fakeView.last.slice(head * 4, head * 4 + 4) as Quat, quatCanonical(sk[head]!.rotation))).toBeLessThan(1e-9)
    // save the pose, then pack it as a mod: the dialog's defaults name the game file it replaces
    await click('re-save')
    await click('re-save-mod')
    const field = (id: string) => $(id) as HTMLInputElement
    expect(field('re-mod-game-path').value).toBe('natives/stm/_chainsaw/animation/ch/ch0_pose.motlist.663')
    expect([field('re-mod-name').value, field('re-mod-author').value, field('re-mod-version').value, field('re-mod-screenshot').checked]).toEqual(['ch0_pose', 'Ada', '1.0', true])
    // the name follows the game path until typed; a folder path takes the saved file's name
    const type = (id: string, v: string) => {
      field(id).value = v
      field(id).dispatchEvent(new Event('input'))
    }
    type('re-mod-game-path', 'natives/stm/_chainsaw/animation/ch/')
    await settle()
    expect(field('re-mod-name').value).toBe('my_pose')
    type('re-mod-game-path', 'natives/stm/_chainsaw/animation/ch/ch1_idle.motlist.663')
    await settle()
    expect(field('re-mod-name').value).toBe('ch1_idle')
    type('re-mod-author', 'Bea')
    type('re-mod-description', 'arms down\nfor Leon')
    await settle()
    const asked: string[] = []
    const pick = (await import('../../../../../src-renderer/bridge')).bridge as unknown as { pick: (o: { defaultPath?: string }) => Promise<string> }
    const before = pick.pick
    pick.pick = async (o) => (asked.push(o.defaultPath ?? ''), '/out/ch1_idle.zip')
    await click('re-mod-pack')
    pick.pick = before
    expect(asked).toEqual(['/out/ch1_idle.zip']) // the zip is named after the replaced game file
    const req = calls.find((c) => c.channel === 're:packMod')!.req
    expect(req).toMatchObject({ file: '/out/my_pose.motlist.663', gamePath: 'natives/stm/_chainsaw/animation/ch/ch1_idle.motlist.663', template: TEMPLATE.path, name: 'ch1_idle', author: 'Bea', version: '1.0', description: 'arms down\nfor Leon', out: '/out/ch1_idle.zip' })
    expect(Array.from(req.screenshotPng as Uint8Array)).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect($('re-status').textContent).toMatch(/^Saved mod .*Fluffy Mod Manager.*Mods folder/)
    expect($('re-mod-dialog')).toBeNull()
    app.unmount()
  })
})
