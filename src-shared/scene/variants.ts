/** Material variants of the neutral scene (`Scene.variants`, glTF KHR_materials_variants). */
import type { Scene } from './types'

/**
 * The scene as drawn in variant `name`: primitives whose material the variant replaces use the
 * replacement (shallow copies; vertex arrays shared). Unknown name or no variants: the scene itself.
 */
export function sceneInVariant(scene: Scene, name: string): Scene {
  const v = scene.variants?.find((x) => x.name === name)
  if (!v || v.replace.length === 0) return scene
  const map = new Map(v.replace)
  return { ...scene, meshes: scene.meshes.map((m) => ({ ...m, primitives: m.primitives.map((p) => (map.has(p.material) ? { ...p, material: map.get(p.material)! } : p)) })) }
}
