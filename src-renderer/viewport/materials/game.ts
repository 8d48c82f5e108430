/**
 * The "Game materials / Simple" switch of the viewport: which Babylon material each mesh of a
 * built scene draws with (the program's shader or the simple StandardMaterial), and the per-frame
 * inputs of the program shaders. Format-free: it reads the built scene and its neutral programs.
 */
import type { BuiltMaterial, BuiltScene, MeshInfo } from '../build'
import type { ViewportToggles } from '../types'
import { applyProgram, shaderCount, whiteTexture } from './program-material'

/** Puts each triangle mesh on its material's program shader (`game`) or its simple material. */
export function assignMeshMaterials(built: BuiltScene, game: boolean): void {
  for (const mesh of built.meshes) {
    const info = (mesh.metadata as { modbench?: MeshInfo } | null)?.modbench
    const bm = info ? built.materials[info.material] : undefined
    if (!bm || (bm.linesMaterial && mesh.material === bm.linesMaterial)) continue
    const want = game && bm.program ? bm.program.material : bm.material
    if (mesh.material !== want) mesh.material = want
  }
}

const colorTracked = new WeakMap<BuiltScene, Set<number>>()
/** Materials some clip's colour track animates. */
function colorTracks(built: BuiltScene): Set<number> {
  let s = colorTracked.get(built)
  if (!s) {
    s = new Set(built.neutral.animations.flatMap((a) => (a.colorTracks ?? []).map((t) => t.material)))
    colorTracked.set(built, s)
  }
  return s
}

/**
 * Sends a material's state now (texture swap, UV animation, colour track) and the toggles to its
 * program shader. A colour track of an N64 program drives PRIMITIVE: Snap's material tracks
 * animate the prim colour (formats/snap/stage-scene-anim.ts); PICA programs ignore it.
 */
export function applyGameMaterial(bm: BuiltMaterial, toggles: ViewportToggles, built: BuiltScene): void {
  const pm = bm.program
  if (!pm) return
  const bscene = pm.material.getScene()
  applyProgram(pm, bm.restTexture, toggles.backfaceCulling && !bm.neutral.doubleSided, {
    textures: toggles.textures,
    lighting: toggles.lighting,
    vertexColors: toggles.vertexColors,
    texture0: bm.texture,
    uv: bm.uv,
    textureFor: (t) => built.textureFor(bm.index, t),
    white: whiteTexture(bscene),
    prim: pm.program.kind === 'n64' && colorTracks(built).has(bm.index) ? bm.color : undefined,
  })
}

/** Program materials of a built scene and the distinct shaders they need. */
export function programStats(built: BuiltScene): { programs: number; shaders: number } {
  const pms = built.materials.map((m) => m.program)
  return { programs: pms.filter((p) => p).length, shaders: shaderCount(pms) }
}
