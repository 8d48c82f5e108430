/**
 * GF materials' PICA programs (materials.md §3, §7): the TexEnv stages of the GFShader the
 * material names (`fragmentShader`), each stage's constant colour taken from the material's six
 * constants through its assignment (SPICA `H3DMaterialParams.GetConstant`), the buffer update and
 * colour, the alpha test and blend state, the lighting colours, and up to three texture units
 * with their UV transforms relative to the primitive's UVs (which carry unit 0's transform).
 */
import type { Material, Texture, WrapMode } from '../../scene/types'
import type { PicaProgram, PicaStage, RGBA8, UVMatrix } from '../../scene/material-program'
import { listTextures, type GfSet, type GfTextureRef } from './gf-set'
import type { GfMaterial, GfTextureUnit, GfWrap } from './material'
import { applyUvTransform } from './motion-pose'
import type { GfMaterialSet, TextureOverride } from './scene-materials'
import { setShaders, type GfShader, type GfTexEnvRegs } from './shader'
import { decodeGfTexture } from './texture'

/** RGBA8 of a PICA colour register (R in the low byte). */
const regColor = (v: number): RGBA8 => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]
const rgba = (c: readonly number[] | undefined): RGBA8 => [c?.[0] ?? 0, c?.[1] ?? 0, c?.[2] ?? 0, c?.[3] ?? 0]

/** Decodes one stage's registers (gf-packages.md §8 bit layouts). */
export function decodeStage(r: GfTexEnvRegs, constant: RGBA8): PicaStage {
  const s = r.source, o = r.operand
  return {
    src: [s & 15, (s >>> 4) & 15, (s >>> 8) & 15, (s >>> 16) & 15, (s >>> 20) & 15, (s >>> 24) & 15],
    op: [o & 15, (o >>> 4) & 15, (o >>> 8) & 15, (o >>> 12) & 7, (o >>> 16) & 7, (o >>> 20) & 7],
    mode: [r.combiner & 15, (r.combiner >>> 16) & 15],
    scale: [r.scale & 3, (r.scale >>> 16) & 3],
    constant,
  }
}

const PASS: Omit<PicaStage, 'constant'> = { src: [15, 0, 0, 15, 0, 0], op: [0, 0, 0, 0, 0, 0], mode: [0, 0], scale: [0, 0] }
const isPass = (st: PicaStage) => st.src[0] === 15 && st.src[3] === 15 && st.op[0] === 0 && st.op[3] === 0 && st.mode[0] === 0 && st.mode[1] === 0 && st.scale[0] === 0 && st.scale[1] === 0

/** 2×3 affine helpers (column-major, as UVMatrix). */
function affineOf(f: (u: number, v: number) => [number, number]): UVMatrix {
  const [ox, oy] = f(0, 0), [ux, uy] = f(1, 0), [vx, vy] = f(0, 1)
  return [ux - ox, uy - oy, vx - ox, vy - oy, ox, oy]
}
function compose(a: UVMatrix, b: UVMatrix): UVMatrix { // a ∘ b
  return [a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1], a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3], a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5]]
}
function invert(m: UVMatrix): UVMatrix | null {
  const det = m[0] * m[3] - m[2] * m[1]
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null
  const a = m[3] / det, b = -m[1] / det, c = -m[2] / det, d = m[0] / det
  return [a, b, c, d, -(a * m[4] + c * m[5]), -(b * m[4] + d * m[5])]
}
const FLIP: UVMatrix = [1, 0, 0, -1, 0, 1] // (u, v) → (u, 1 − v), its own inverse

/**
 * Unit `u`'s UV matrix relative to the primitive's UVs, which are flip(unit0(raw)) (scene.ts):
 * flip ∘ unitU ∘ unit0⁻¹ ∘ flip. Identity for unit 0 or when unit 0's transform is singular.
 */
export function unitUVMatrix(unit0: GfTextureUnit | undefined, unit: GfTextureUnit): UVMatrix {
  const b = affineOf((u, v) => applyUvTransform(unit, u, v))
  const a = unit0 ? affineOf((u, v) => applyUvTransform(unit0, u, v)) : ([1, 0, 0, 1, 0, 0] as UVMatrix)
  const ai = invert(a)
  if (!ai) return [1, 0, 0, 1, 0, 0]
  return compose(FLIP, compose(b, compose(ai, FLIP))).map((x) => (Math.abs(x) < 1e-12 ? 0 : x)) as UVMatrix
}

/** The PICA program of a GF material with its TexEnv shader; scene texture indices per unit. */
export function gfProgram(m: GfMaterial, shader: GfShader, textures: (number | null)[]): PicaProgram {
  const stages = shader.stages.map((r, k): PicaStage => {
    const a = m.constantAssignments[k]
    const constant = a !== undefined && a < 6 && m.colors.constant[a] ? rgba(m.colors.constant[a]) : regColor(r?.color ?? 0)
    return r ? decodeStage(r, constant) : { ...PASS, src: [...PASS.src], op: [...PASS.op], mode: [0, 0], scale: [0, 0], constant }
  })
  while (stages.length > 1 && isPass(stages[stages.length - 1]!)) stages.pop()
  const s = m.state
  return {
    stages, bufferColor: regColor(shader.bufferColor), bufferUpdate: shader.updateBuffer & 0xff00,
    textures, uvTransforms: textures.map((_, k) => (k === 0 || !m.units[k] ? [1, 0, 0, 1, 0, 0] : unitUVMatrix(m.units[0], m.units[k]!))),
    ...(s.alphaTest.enabled ? { alphaTest: { func: s.alphaTest.func, ref: s.alphaTest.ref } } : {}),
    blend: { ...s.blend },
    lighting: { emission: rgba(m.colors.emission), ambient: rgba(m.colors.ambient), diffuse: rgba(m.colors.diffuse) },
  }
}

const WRAP: Record<GfWrap, WrapMode> = { 'clamp-edge': 'clamp', 'clamp-border': 'clamp', repeat: 'repeat', mirror: 'mirror' }

/**
 * Sets `program` on the materials `buildGfMaterials` made (normal and shiny), for every material
 * whose fragment shader has TexEnv stages. Textures of units 1–2 are looked up among the scene's
 * textures by name (`<file>_<entry>_<name>`, as buildGfMaterials names them) and added when absent.
 */
export function attachGfPrograms(set: GfSet, gfMaterials: readonly GfMaterial[], mats: Pick<GfMaterialSet, 'materials' | 'textures' | 'shinyOf'>, override?: TextureOverride): string[] {
  const { shaders, warnings } = setShaders(set)
  if (!shaders.size) return warnings
  const byFile = new Map<string, Map<string, GfTextureRef>>()
  for (const t of listTextures(set)) {
    const m = byFile.get(t.file) ?? new Map<string, GfTextureRef>()
    if (!m.has(t.header.name)) m.set(t.header.name, t)
    byFile.set(t.file, m)
  }
  const texture = (files: string[], u: GfTextureUnit): number | null => {
    const ref = files.map((f) => byFile.get(f)?.get(u.texture)).find((x) => x)
    if (!ref) return null
    const name = `${ref.file.replace('.bin', '')}_${ref.entry}_${ref.header.name}`
    const wrapS = WRAP[u.wrapU], wrapT = WRAP[u.wrapV]
    const found = mats.textures.findIndex((t) => t.name === name && t.wrapS === wrapS && t.wrapT === wrapT)
    if (found >= 0) return found
    const tex: Texture = { name, width: ref.header.width, height: ref.header.height, rgba: override?.(ref.file, ref.entry) ?? decodeGfTexture(ref.bytes, ref.header), wrapS, wrapT, filter: 'linear' }
    mats.textures.push(tex)
    return mats.textures.length - 1
  }
  gfMaterials.forEach((m, i) => {
    const shader = shaders.get(m.fragmentShader)
    if (!shader?.hasTexEnv) return
    const bad = shader.stages.findIndex((r) => r && ((r.combiner & 15) > 9 || ((r.combiner >>> 16) & 15) > 9))
    if (bad >= 0) return void warnings.push(`material '${m.name}': shader '${shader.name}' stage ${bad} has an unknown combiner; drawn with its simple material`)
    const attach = (target: Material | undefined, files: string[]) => {
      if (!target) return
      const units = m.units.slice(0, 3).map((u, k) => (k === 0 ? target.texture ?? null : texture(files, u)))
      target.program = { kind: 'pica', pica: gfProgram(m, shader, units) }
    }
    attach(mats.materials[i], ['1.bin'])
    const shiny = mats.shinyOf.get(i)
    if (shiny !== undefined) attach(mats.materials[shiny], ['2.bin', '1.bin'])
  })
  return warnings
}
