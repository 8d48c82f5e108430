/**
 * What the viewport shows of its scene: the built neutral scene with its overlays (grid, bounds,
 * markers, curves, skeleton, pick highlight), the toggles applied to them, and picking.
 */
import { PointerEventTypes } from '@babylonjs/core/Events/pointerEvents.js'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js'
import type { Scene } from '@shared/scene/types'
import { boundsRadius, nodeBounds, sceneBounds, type Bounds } from '@shared/scene/bounds'
import { samplePose } from '@shared/scene/sample'
import { buildScene, type BuildOptions, type BuiltMaterial, type BuiltScene } from './build'
import { makeBoundsBox, makeCurves, makeGrid, SkeletonOverlay } from './helpers'
import { AnimationPlayer } from './player'
import type { PickInfo, ViewportToggles } from './types'
import { makeMarkers, openingView, pickedBounds } from './explore'
import { pickAt } from './picking'
import { applyGameMaterial, assignMeshMaterials } from './materials/game'
import { frameScene, setView } from './camera'
import type { ViewState } from './stage'

/** Applies a built material's state (texture, colour, UV) and the toggles to its Babylon material. */
export function applyMaterial(bm: BuiltMaterial, toggles: ViewportToggles, built: BuiltScene): void {
  const m = bm.material
  const cull = toggles.backfaceCulling && !bm.neutral.doubleSided
  if (m.backFaceCulling !== cull) m.backFaceCulling = cull
  const tex = toggles.textures && bm.texture !== undefined ? built.textureFor(bm.index, bm.texture) : null
  if (m.diffuseTexture !== tex) m.diffuseTexture = tex
  if (tex) {
    tex.uOffset = bm.uv[0]
    tex.vOffset = bm.uv[1]
    tex.uScale = bm.uv[2]
    tex.vScale = bm.uv[3]
  }
  const [r, g, b, a] = bm.color
  m.alpha = bm.neutral.alphaMode === 'OPAQUE' ? 1 : a
  const unlit = !!bm.neutral.unlit || !toggles.lighting
  m.disableLighting = unlit
  if (unlit) {
    m.emissiveColor.set(r, g, b)
    m.diffuseColor.set(r, g, b)
  } else {
    m.emissiveColor.set(0, 0, 0)
    m.diffuseColor.set(r, g, b)
  }
  if (bm.linesMaterial) {
    bm.linesMaterial.emissiveColor.set(r, g, b)
  }
  if (toggles.gameMaterials) applyGameMaterial(bm, toggles, built)
}

function applyMaterials(st: ViewState): void {
  const built = st.built
  if (!built) return
  for (const bm of built.materials) applyMaterial(bm, st.toggles, built)
}

/** Shows, hides and restyles what the toggles govern. */
export function applyToggles(st: ViewState): void {
  const { toggles, built, skeleton } = st
  st.scene.forceWireframe = toggles.wireframe
  if (st.grid) st.grid.setEnabled(toggles.grid)
  if (st.boundsBox) st.boundsBox.setEnabled(toggles.bounds)
  if (st.markers) st.markers.setEnabled(toggles.markers)
  if (built) for (const m of built.meshes) m.useVertexColors = toggles.vertexColors && m.isVerticesDataPresent(VertexBuffer.ColorKind)
  if (built) assignMeshMaterials(built, toggles.gameMaterials)
  for (const c of st.curves) c.setEnabled(toggles.curves)
  if (skeleton?.mesh) {
    skeleton.mesh.setEnabled(toggles.skeleton)
    if (toggles.skeleton) skeleton.update()
  }
  st.hemi.setEnabled(toggles.lighting)
  st.sun.setEnabled(toggles.lighting)
  applyMaterials(st)
}

/** Highlights what a pick hit (a box around its meshes), or clears it with null. */
export function highlight(st: ViewState, p: PickInfo | null): void {
  st.highlightBox?.dispose()
  st.highlightBox = null
  st.highlighted = p
  const b = p && st.built ? pickedBounds(st.built, p.node, p.mesh ?? null, p.subtree) : null
  if (!b) return
  st.highlightBox = makeBoundsBox(st.scene, b)
  st.highlightBox.name = 'viewport/highlight'
  st.highlightBox.color.set(0.2, 1, 1)
}

/** What is under canvas pixel (x, y), or null. */
export function pick(st: ViewState, x: number, y: number): PickInfo | null {
  return st.built ? pickAt(st.scene, st.built, x, y) : null
}

/** A tap on the canvas picks, highlights what it hit and tells the pick listeners. */
export function listenForPicks(st: ViewState): void {
  st.scene.onPointerObservable.add((e) => {
    if (e.type !== PointerEventTypes.POINTERTAP) return
    const p = pick(st, st.scene.pointerX, st.scene.pointerY)
    highlight(st, p)
    for (const l of st.listeners.pick) l(p)
  })
}

/** Disposes the current scene and everything made for it. */
export function clearContent(st: ViewState): void {
  st.playerOff?.()
  st.playerOff = null
  st.player = null
  st.skeleton?.dispose()
  st.skeleton = null
  for (const c of st.curves) c.dispose()
  st.curves = []
  st.boundsBox?.dispose()
  st.boundsBox = null
  st.markers?.dispose()
  st.markers = null
  highlight(st, null)
  st.grid?.dispose()
  st.grid = null
  st.built?.dispose()
  st.built = null
  st.bounds = null
}

function unionBounds(a: Bounds | null, b: Bounds | null): Bounds | null {
  if (!a || !b) return a ?? b
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  }
}

/** Builds `neutral` with its player and overlays, and frames it (or its own opening view). */
function showScene(st: ViewState, neutral: Scene, buildOpts: BuildOptions | undefined): void {
  const { scene } = st
  const built = (st.built = buildScene(scene, neutral, buildOpts))
  const player = (st.player = new AnimationPlayer(built, () => applyMaterials(st)))
  // Frame what the first shown frame needs: the rest pose and the start of the first clip.
  const anim = player.animation
  // A scene without geometry (a bare skeleton) frames its nodes.
  const bounds = (st.bounds = unionBounds(sceneBounds(neutral), anim ? sceneBounds(neutral, samplePose(neutral, anim, 0)) : null) ?? nodeBounds(neutral))
  const r = bounds ? Math.max(boundsRadius(bounds), 1e-3) : 1
  st.grid = makeGrid(scene, r)
  if (bounds) st.boundsBox = makeBoundsBox(scene, bounds)
  st.markers = makeMarkers(scene, neutral, r * 0.03)
  st.fly.fit(r)
  st.curves = makeCurves(scene, built)
  st.skeleton = new SkeletonOverlay(scene, built, r)
  player.apply()
  st.playerOff = player.onChange((s) => {
    if (st.skeleton && st.toggles.skeleton) st.skeleton.update()
    for (const l of st.listeners.player) l(s)
  })
  frameScene(st)
  const cam = openingView(neutral)
  if (cam) setView(st, cam)
}

/** Replaces the shown scene (null: none) and tells the player and scene listeners. */
export function setSceneContent(st: ViewState, neutral: Scene | null, buildOpts?: BuildOptions): void {
  clearContent(st)
  if (neutral) showScene(st, neutral, buildOpts)
  applyToggles(st)
  const player = st.player
  if (player) for (const l of st.listeners.player) l(player.state())
  for (const l of st.listeners.scene) l(st.built)
  // Every material's program is started now (isReady makes the effects), not by the first
  // frame: their preparation ends before it, so the first frame draws the whole scene.
  if (neutral) st.scene.isReady(false)
}
