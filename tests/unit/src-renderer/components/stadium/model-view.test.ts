// @vitest-environment happy-dom
/** The Stadium model view: move picker → clip, game-style playback (loopStart wrap), eye selector, prev/next. */
import { describe, expect, it, vi, beforeEach } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow } from '../../../../../src-shared/api'
import type { StadiumModelInfo } from '../../../../../src-shared/api/stadium'
import type { Scene } from '../../../../../src-shared/scene/types'
import { eyeSwapTracks } from '../../../../../src-shared/formats/stadium/eye-tracks'

const calls: { channel: string; req: Record<string, unknown> }[] = []
// The viewport needs WebGL; this stand-in runs the real generic player on a built scene of one
// material, so the view's playback (clip counter, eye counter) is the player's, driven by step().
const { AnimationPlayer } = await import('../../../../../src-renderer/viewport/player')
type Player = InstanceType<typeof AnimationPlayer>
const material = { index: 0, restTexture: 0, texture: 0 as number | undefined, neutral: { baseColor: [1, 1, 1, 1] }, color: [1, 1, 1, 1], uv: [0, 0, 1, 1] }
const fake: { player: Player | null; setFrames: number[] } = { player: null, setFrames: [] }
vi.mock('../../../../../src-renderer/viewport/viewport', () => ({
  defaultToggles: { textures: true, lighting: true, wireframe: false, skeleton: false, bounds: false, curves: true, grid: true },
  createViewport: () => {
    const listeners = new Set<(s: unknown) => void>()
    const sceneListeners = new Set<() => void>()
    let neutral: Scene | null = null
    return {
      get player() {
        return fake.player
      },
      toggles: {},
      get built() {
        return neutral ? { materials: [material], neutral } : null
      },
      setScene: (s: Scene | null) => {
        neutral = s
        queueMicrotask(() => sceneListeners.forEach((l) => l()))
        fake.player = s ? new AnimationPlayer({ neutral: s, nodes: [], materials: [material] } as never) : null
        if (!fake.player) return
        const setFrame = fake.player.setFrame.bind(fake.player)
        fake.player.setFrame = (f: number) => {
          fake.setFrames.push(f)
          setFrame(f)
        }
        fake.player.onChange((st) => listeners.forEach((l) => l(st)))
      },
      onPlayer: (l: (s: unknown) => void) => {
        listeners.add(l)
        return () => listeners.delete(l)
      },
      step: (dt: number) => fake.player?.tick(dt),
      setToggle: vi.fn(), frame: vi.fn(), resize: vi.fn(), dispose: vi.fn(),
      // what the shared render panel asks of any viewport
      fly: { multiplier: 1 }, cameraMode: 'orbit', stats: () => null, onPick: () => () => {}, onScene: (l: () => void) => (sceneListeners.add(l), () => sceneListeners.delete(l)), onCamera: () => () => {},
    }
  },
}))

const INFO: StadiumModelInfo = {
  assetId: 10, file: 0, name: 'Bulbasaur', slug: '001_bulbasaur', species: 1, bones: 4,
  animations: [
    { index: 0, name: 'idle', frames: 5, startFrame: 1, loopStartFrame: 2, endBehavior: 'wrap', hermite: false, pairedTextureAnimation: 0, contexts: ['idle'], moves: [] },
    { index: 1, name: 'attack', frames: 4, startFrame: 0, loopStartFrame: 0, endBehavior: 'clamp', hermite: true, pairedTextureAnimation: -1, contexts: [], moves: ['Pound'] },
  ],
  textureAnimations: [{ index: 0, frames: 3, startFrame: 0, loopStartFrame: 1, hold: false }],
  moves: Array.from({ length: 165 }, (_, i) => ({ id: i + 1, name: `Move ${i + 1}`, animation: i === 0 ? 1 : 0, animationName: i === 0 ? 'attack' : 'idle', differsFromDefault: i === 0, playStartFrame: i === 0 ? 2 : 0, aux: -1 })),
  attachPoints: [{ id: 1, bone: 'bone00' }],
  siblings: [{ id: 10, name: '001 Bulbasaur' }, { id: 20, name: '002 Ivysaur' }],
  warnings: [],
}
// What buildStadiumScene makes of INFO: whole-frame clips (idle loops from frame 2, attack holds),
// idle paired with eye animation 0 (frames 3, loop from 1) on its own counter.
const eye0 = { index: 0, frames: 3, startFrame: 0, loopStartFrame: 1, hold: false, tracks: [{ material: 0, textures: [5, 6, 7] }] }
const SCENE: Scene = {
  name: '001_bulbasaur', nodes: [], meshes: [], skins: [], curves: [],
  materials: [{ name: 'eyes', baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided: false, texture: 0 }],
  textures: Array.from({ length: 8 }, (_, i) => ({ name: `t${i}`, width: 1, height: 1, rgba: new Uint8Array(4), wrapS: 'repeat' as const, wrapT: 'repeat' as const })),
  animations: [
    { name: 'idle', duration: 4 / 30, frameRate: 30, channels: [], loop: true, loopStart: 2 / 30, integerFrames: true, textureSwaps: eyeSwapTracks(eye0, 30) },
    { name: 'attack', duration: 3 / 30, frameRate: 30, channels: [], loop: false, integerFrames: true },
  ],
  extras: { textureAnimations: [eye0] },
}
const selected: AssetRow[] = []
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'http',
    on: () => () => {},
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      if (channel === 'stadium:model') return INFO
      if (channel === 'scene:open') return SCENE
      if (channel === 'catalog:asset') return { id: req.id, sourceId: 1, parent: 1, kind: 'stadium-model', name: 'x', locator: { file: 1 }, metadata: {}, childCount: 0 }
      throw new Error(`unexpected ${channel}`)
    },
  },
}))
vi.mock('../../../../../src-renderer/stores/catalog', () => ({ useCatalogStore: () => ({ selectAsset: (a: AssetRow) => selected.push(a) }) }))

const { default: View } = await import('../../../../../src-renderer/components/stadium/StadiumModelView.vue')

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}

describe('StadiumModelView', () => {
  beforeEach(() => {
    calls.length = 0
    document.body.innerHTML = '<div id="app"></div>'
  })
  it('lists clips and moves, jumps to the move’s animation, plays like the game, swaps eyes, navigates', async () => {
    setActivePinia(createPinia())
    const asset: AssetRow = { id: 10, sourceId: 1, parent: 1, kind: 'stadium-model', name: '001 Bulbasaur', locator: { file: 0 }, metadata: {}, childCount: 2 }
    const app = createApp({ render: () => h(View, { asset, source: null }) })
    app.mount('#app')
    await settle()
    const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement
    expect(q('stadium-view').dataset.model).toBe('001_bulbasaur')
    expect(document.querySelectorAll('[data-testid^="stadium-clip-"]').length).toBe(2)
    const moveSel = q('stadium-move') as HTMLSelectElement
    expect(moveSel.options.length).toBe(166)
    expect(moveSel.options[2]!.textContent).toContain('(generic)')
    // clip 0 starts at its startFrame (1); its paired eye animation shows texture 5
    const player = fake.player!
    const step = (ticks: number) => {
      for (let k = 0; k < ticks; k++) player.tick(1 / 30)
    }
    expect(player.clip).toBe(0)
    expect(player.frame).toBe(1)
    expect(material.texture).toBe(5)
    // playing like the game: frames 1 2 3 4, then wrap to loopStartFrame 2; the eyes on their own
    // counter: 0 1 2 1 2 … (textures 5 6 7 6 7), not reset when the clip wraps
    ;(q('anim-play') as HTMLButtonElement).click()
    const seen: [number, number | undefined][] = []
    for (let k = 0; k < 6; k++) {
      step(1)
      seen.push([player.frame, material.texture])
    }
    expect(seen).toEqual([[2, 6], [3, 7], [4, 6], [2, 7], [3, 6], [4, 7]])
    await settle()
    expect(q('anim-frame').textContent).toContain('4 / 4')
    expect(q('stadium-view').textContent).toContain('eyes 0 frame 2')
    ;(q('anim-play') as HTMLButtonElement).click()
    // move 1 → animation 1; "as in battle" starts at the entry's frame 2
    ;(q('stadium-as-in-battle') as HTMLInputElement).click()
    fake.setFrames.length = 0
    moveSel.value = '1'
    moveSel.dispatchEvent(new Event('change'))
    expect(player.clip).toBe(1)
    expect(fake.setFrames[0]).toBe(2)
    // playing: the hold (clamp) clip stops advancing at its last frame
    step(5)
    await settle()
    expect(q('anim-frame').textContent).toContain('3 / 3')
    expect(q('anim-play').textContent).toBe('Play')
    // scrub to the last frame of clip 0, then tick: wraps to loopStartFrame 2
    ;(q('stadium-clip-0') as HTMLButtonElement).click()
    await settle()
    const scrub = q('anim-scrubber') as HTMLInputElement
    scrub.value = '4'
    scrub.dispatchEvent(new Event('input'))
    await settle()
    expect(q('anim-frame').textContent).toContain('4 / 4')
    ;(q('anim-play') as HTMLButtonElement).click()
    step(1)
    await settle()
    expect(q('anim-frame').textContent).toContain('2 / 4')
    // the shared time bar's clip choice starts the clip as the view does: idle at its startFrame 1,
    // with its paired eyes from their start (texture 5)
    ;(q('anim-play') as HTMLButtonElement).click()
    const clipSel = q('anim-clip') as HTMLSelectElement
    clipSel.value = '1'
    clipSel.dispatchEvent(new Event('change'))
    await settle()
    expect(q('stadium-clip-1').classList.contains('active')).toBe(true)
    expect(player.frame).toBe(0)
    clipSel.value = '0'
    clipSel.dispatchEvent(new Event('change'))
    await settle()
    expect(q('stadium-clip-0').classList.contains('active')).toBe(true)
    expect(player.frame).toBe(1)
    expect(material.texture).toBe(5)
    expect(q('stadium-anim-info').textContent).toContain('start 1 · loop 2 · wrap')
    // eye selector: none → static texture
    const eyes = q('stadium-eyes') as HTMLSelectElement
    eyes.value = '-1'
    eyes.dispatchEvent(new Event('change'))
    await settle()
    expect(material.texture).toBe(0)
    // and back to eye animation 0: its counter starts again at its own start (texture 5)
    eyes.value = '0'
    eyes.dispatchEvent(new Event('change'))
    await settle()
    expect(material.texture).toBe(5)
    ;(q('stadium-next') as HTMLButtonElement).click()
    await settle()
    expect(selected.at(-1)!.id).toBe(20)
    app.unmount()
  })
})
