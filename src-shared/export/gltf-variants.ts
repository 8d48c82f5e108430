/** KHR_materials_variants for the glTF exporter: the neutral scene's `variants` as glTF variants. */
import type { Material as GMaterial, Primitive as GPrimitive } from '@gltf-transform/core'
import type { KHRMaterialsVariants } from '@gltf-transform/extensions'
import type { Scene } from '../scene/types'

/**
 * A primitive's mappings: for each variant, the material it is drawn with (its own unless the
 * variant replaces it). Variants that draw the same material share one mapping.
 */
export function writeVariants(ext: KHRMaterialsVariants, variants: ReturnType<KHRMaterialsVariants['createVariant']>[], gp: GPrimitive, material: number, scene: Scene, gMaterials: GMaterial[]): void {
  const byMaterial = new Map<number, ReturnType<KHRMaterialsVariants['createMapping']>>()
  const list = ext.createMappingList()
  scene.variants!.forEach((v, vi) => {
    const m = v.replace.find(([from]) => from === material)?.[1] ?? material
    let mapping = byMaterial.get(m)
    if (!mapping) {
      mapping = ext.createMapping().setMaterial(gMaterials[m]!)
      byMaterial.set(m, mapping)
      list.addMapping(mapping)
    }
    mapping.addVariant(variants[vi]!)
  })
  gp.setExtension('KHR_materials_variants', list)
}

