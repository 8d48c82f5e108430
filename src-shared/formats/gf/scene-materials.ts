/**
 * GF materials → neutral materials and textures (spec §12): unit 0's texture bound by name to
 * `1.bin` (normal); the same names in `2.bin` give the shiny materials of the `shiny` variant.
 * Wrap modes from unit 0, alpha test → MASK, blending → BLEND, no culling → double-sided.
 * Units 1–2 have no glTF slot of their own: their textures are scene textures too (so they reach
 * the glb as images; `1.bin`, else `3.bin` by name, shiny from `2.bin`), and
 * `extras.gf.units[u].image` names each unit's scene texture (= glTF image index).
 */
import type { Material, MaterialVariant, Texture, WrapMode } from '../../scene/types'
import { listTextures, type GfSet, type GfTextureRef } from './gf-set'
import type { GfMaterial, GfWrap } from './material'
import { decodeGfTexture } from './texture'

const WRAP: Record<GfWrap, WrapMode> = { 'clamp-edge': 'clamp', 'clamp-border': 'clamp', repeat: 'repeat', mirror: 'mirror' }

/** RGBA of a texture to show instead of its stored pixels (a pending replacement), if any. */
export type TextureOverride = (file: string, entry: number) => Uint8Array | undefined

export interface GfMaterialSet {
  materials: Material[]
  textures: Texture[]
  variants?: MaterialVariant[]
  /** Neutral material index of each GF material name. */
  byName: Map<string, number>
  /** Shiny material of each normal material index that has one. */
  shinyOf: Map<number, number>
  warnings: string[]
}

function byTextureName(set: GfSet, file: string): Map<string, GfTextureRef> {
  const out = new Map<string, GfTextureRef>()
  for (const t of listTextures(set)) if (t.file === file && !out.has(t.header.name)) out.set(t.header.name, t)
  return out
}

function baseMaterial(m: GfMaterial): Material {
  const s = m.state
  const alphaMode = s.alphaTest.enabled ? 'MASK' : s.blend.enabled ? 'BLEND' : 'OPAQUE'
  return {
    name: m.name,
    baseColor: [1, 1, 1, 1],
    alphaMode,
    ...(alphaMode === 'MASK' ? { alphaCutoff: Math.max(s.alphaTest.ref, 1) / 255 } : {}),
    doubleSided: s.cull === 0,
    extras: {
      gf: {
        shader: m.shader, vertexShader: m.vertexShader, fragmentShader: m.fragmentShader,
        units: m.units.map((u) => ({ texture: u.texture, mapping: u.mapping, scale: u.scale, rotation: u.rotation, translation: u.translation, wrap: [u.wrapU, u.wrapV] })),
        cull: s.cull, blend: s.blend, alphaTest: s.alphaTest, depth: s.depth, renderLayer: m.renderLayer, renderPriority: m.renderPriority,
      },
    },
  }
}

/** The material's `extras.gf` with each unit's scene texture index (`image`, null when not found). */
function unitExtras(mat: Material, images: (number | null)[]): Record<string, unknown> {
  const gf = (mat.extras?.gf ?? {}) as { units?: Record<string, unknown>[] }
  return { ...mat.extras, gf: { ...gf, units: (gf.units ?? []).map((x, k) => ({ ...x, image: images[k] ?? null })) } }
}

/** Builds the materials of a model with their normal textures and, when `2.bin` has them, shiny ones. */
export function buildGfMaterials(set: GfSet, gfMaterials: readonly GfMaterial[], override?: TextureOverride): GfMaterialSet {
  const normal = byTextureName(set, '1.bin')
  const shiny = byTextureName(set, '2.bin')
  const aux = byTextureName(set, '3.bin')
  const textures: Texture[] = []
  const texIndex = new Map<string, number>()
  const warnings: string[] = []
  const texture = (ref: GfTextureRef, wrapS: WrapMode, wrapT: WrapMode): number => {
    const key = `${ref.file}#${ref.entry}#${wrapS}#${wrapT}`
    let i = texIndex.get(key)
    if (i === undefined) {
      i = textures.length
      const rgba = override?.(ref.file, ref.entry) ?? decodeGfTexture(ref.bytes, ref.header)
      textures.push({ name: `${ref.file.replace('.bin', '')}_${ref.entry}_${ref.header.name}`, width: ref.header.width, height: ref.header.height, rgba, wrapS, wrapT, filter: 'linear' })
      texIndex.set(key, i)
    }
    return i
  }
  const materials: Material[] = gfMaterials.map(baseMaterial)
  const byName = new Map<string, number>()
  gfMaterials.forEach((m, i) => { if (!byName.has(m.name)) byName.set(m.name, i) })
  const shinyOf = new Map<number, number>()
  gfMaterials.forEach((m, i) => {
    const u = m.units[0]
    if (!u) return
    const n = normal.get(u.texture)
    if (n) materials[i]!.texture = texture(n, WRAP[u.wrapU], WRAP[u.wrapV])
    else warnings.push(`material '${m.name}': texture '${u.texture}' is not in 1.bin; drawn untextured`)
    // Units ≥ 1: 1.bin, else 3.bin (auxiliary textures bind only by a matching name, §12).
    const unitImage = (unit: GfMaterial['units'][number], own: Map<string, GfTextureRef>, k: number): number | null => {
      const ref = k === 0 ? own.get(unit.texture) : (own.get(unit.texture) ?? normal.get(unit.texture) ?? aux.get(unit.texture))
      return ref ? texture(ref, WRAP[unit.wrapU], WRAP[unit.wrapV]) : null
    }
    const withImages = (own: Map<string, GfTextureRef>) => unitExtras(materials[i]!, m.units.map((x, k) => unitImage(x, own, k)))
    materials[i]!.extras = withImages(normal)
    const s = shiny.get(u.texture)
    if (s) {
      shinyOf.set(i, materials.length)
      materials.push({ ...materials[i]!, name: `${m.name} (shiny)`, texture: texture(s, WRAP[u.wrapU], WRAP[u.wrapV]), extras: withImages(shiny) })
    }
  })
  const variants: MaterialVariant[] | undefined = shinyOf.size ? [{ name: 'normal', replace: [] }, { name: 'shiny', replace: [...shinyOf] }] : undefined
  return { materials, textures, variants, byName, shinyOf, warnings }
}
