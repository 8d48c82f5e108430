/** KHR_materials_variants for the glTF exporter: the neutral scene's `variants` as glTF variants. */
import type { Scene } from '../scene/types'

/**
 * A primitive's mappings: for each variant, the material it is drawn with (its own unless the
 * variant replaces it). Variants that draw the same material share one mapping, in first-use
 * order; variant indices are the neutral variants' (the root extension lists them in order).
 */
export function primitiveVariants(scene: Scene, material: number): { material: number; variants: number[] }[] {
  const byMaterial = new Map<number, { material: number; variants: number[] }>()
  const mappings: { material: number; variants: number[] }[] = []
  scene.variants!.forEach((v, vi) => {
    const m = v.replace.find(([from]) => from === material)?.[1] ?? material
    let mapping = byMaterial.get(m)
    if (!mapping) {
      mapping = { material: m, variants: [] }
      byMaterial.set(m, mapping)
      mappings.push(mapping)
    }
    mapping.variants.push(vi)
  })
  return mappings
}
