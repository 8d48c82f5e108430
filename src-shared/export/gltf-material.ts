/**
 * Material programs → what glTF can carry (materials.md §8), as a pass over the neutral scene
 * before it is written (`sceneToGlb`, and the tests' glTF-Transform oracle, share it):
 * - exact cases (the folded colour and alpha are monomials over the same TEXEL0, gltf-program.ts):
 *   baseColorTexture = TEXEL0, baseColorFactor = the constants, COLOR_0 = SHADE;
 * - everything else: a base-colour texture baked per texel from the program's constant inputs and
 *   textures (SHADE white), appended after the scene's textures, with factor 1; SHADE stays as
 *   COLOR_0 when it only multiplies at the end; `approximate` when SHADE enters otherwise, or
 *   noise, LOD fraction, texgen, fog or fragment lighting take part, or TEXEL1 has another tiling;
 * - COLOR_0 keeps only the channels the program multiplies by SHADE (others set to 1), and is
 *   dropped when SHADE does not take part (glTF would multiply it in);
 * - the program itself goes to `extras.modbench.material` (texture indices = glTF image indices),
 *   and a threshold alpha compare becomes `alphaCutoff` = blend alpha / 255 on a MASK material.
 * Materials without a program, and everything else, pass through unchanged.
 */
import type { MaterialProgram, UVMatrix } from '../scene/material-program'
import type { Material, Primitive, Scene, Texture } from '../scene/types'
import { evaluateN64Pixel } from '../materials/n64-reference'
import { evaluatePicaFragment } from '../materials/pica-reference'
import { foldN64, foldPica, type Folded, type ProgramLook } from './gltf-program'

type Rgba = [number, number, number, number]

/** How a material's primitives' COLOR_0 must change: keep RGB / alpha (else set to 1), or drop. */
interface ColourUse { rgb: boolean; alpha: boolean }

const IDENTITY: UVMatrix = [1, 0, 0, 1, 0, 0]
const isIdentity = (m: readonly number[] | undefined) => !m || m.every((v, i) => Math.abs(v - IDENTITY[i]!) < 1e-9)

/** Nearest texel of `t` at (u, v) with its wrap modes. */
function sample(t: Texture, u: number, v: number): Rgba {
  const coord = (x: number, n: number, wrap: Texture['wrapS']) => {
    let i = Math.floor(x * n)
    if (wrap === 'clamp') return Math.min(n - 1, Math.max(0, i))
    if (wrap === 'mirror') {
      const p = ((i % (2 * n)) + 2 * n) % (2 * n)
      return p < n ? p : 2 * n - 1 - p
    }
    i %= n
    return i < 0 ? i + n : i
  }
  const o = (coord(v, t.height, t.wrapT) * t.width + coord(u, t.width, t.wrapS)) * 4
  return [t.rgba[o]!, t.rgba[o + 1]!, t.rgba[o + 2]!, t.rgba[o + 3]!]
}

const apply = (m: UVMatrix, u: number, v: number): [number, number] => [m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5]]

/** The texture the bake is laid out on (its size and wraps): the first present slot, or none (a 1×1 bake). */
function bakeLayout(scene: Scene, slots: (number | null)[]): Texture | null {
  const first = slots.find((t) => t !== null && t !== undefined)
  return first !== undefined && first !== null ? scene.textures[first]! : null
}

/** Bakes `evaluate` over the layout texture's texels (uv at texel centres); slot k sampled through its UV matrix. */
function bake(scene: Scene, name: string, slots: (number | null)[], uv: UVMatrix[], evaluate: (texels: (Rgba | undefined)[]) => Rgba): Texture {
  const layout = bakeLayout(scene, slots)
  const w = layout?.width ?? 1, h = layout?.height ?? 1
  const rgba = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w, v = (y + 0.5) / h
      const texels = slots.map((ti, k) => (ti === null || ti === undefined ? undefined : sample(scene.textures[ti]!, ...apply(uv[k] ?? IDENTITY, u, v))))
      const c = evaluate(texels)
      for (let k = 0; k < 4; k++) rgba[(y * w + x) * 4 + k] = Math.min(255, Math.max(0, Math.floor(c[k]! + 0.5)))
    }
  }
  return { name, width: w, height: h, rgba, wrapS: layout?.wrapS ?? 'clamp', wrapT: layout?.wrapT ?? 'clamp', filter: layout?.filter ?? 'nearest' }
}

const WHITE: Rgba = [255, 255, 255, 255]

function bakeProgram(scene: Scene, m: Material, prog: MaterialProgram): { texture: Texture; tiled: boolean } {
  if (prog.kind === 'n64') {
    const p = prog.n64
    const tex = bake(scene, `${m.name}_baked`, [...p.textures], [...p.uvTransforms], ([t0, t1]) => evaluateN64Pixel(p, { texel0: t0, texel1: t1, shade: WHITE }).combined)
    const t0 = p.textures[0] !== null ? scene.textures[p.textures[0]] : undefined
    const t1 = p.textures[1] !== null ? scene.textures[p.textures[1]] : undefined
    const tiled = !t1 || (isIdentity(p.uvTransforms[1]) && !!t0 && t0.width === t1.width && t0.height === t1.height)
    return { texture: tex, tiled }
  }
  const p = prog.pica
  const tex = bake(scene, `${m.name}_baked`, [...p.textures], [...p.uvTransforms], (texels) => evaluatePicaFragment(p, { primary: WHITE, fragPrimary: WHITE, fragSecondary: [0, 0, 0, 0], textures: texels }).rgba)
  return { texture: tex, tiled: p.uvTransforms.every((x, k) => k === 0 || p.textures[k] === null || isIdentity(x)) }
}

/** The program as plain JSON for `extras.modbench.material`. */
function programJson(prog: MaterialProgram): Record<string, unknown> {
  if (prog.kind === 'pica') return { kind: 'pica', ...prog.pica }
  const p = prog.n64
  const hex = (v: number, n: number) => `0x${(v >>> 0).toString(16).toUpperCase().padStart(n, '0')}`
  return { kind: 'n64', ...p, words: { setCombine: [hex(0xfc000000 | p.combine[0], 8), hex(p.combine[1], 8)], otherModeH: hex(p.otherModeH, 8), otherModeL: hex(p.otherModeL, 8), geometryMode: hex(p.geometryMode, 8) } }
}

/**
 * Exact when colour and alpha are monomials over the same TEXEL0 — or when the alpha does not
 * matter (OPAQUE), or TEXEL0 is in the colour only and its alpha is 255 everywhere.
 */
function monoExact(scene: Scene, m: Material, look: ProgramLook, t0: number | null | undefined): boolean {
  const c = look.colour, a = look.alpha
  if (!c.mono || c.approximate) return false
  if (m.alphaMode === 'OPAQUE') return true
  if (!a.mono || a.approximate) return false
  if (c.mono.t0 === a.mono.t0) return true
  const tex = t0 !== null && t0 !== undefined ? scene.textures[t0] : undefined
  return c.mono.t0 && !!tex && opaqueTexture(tex)
}

function opaqueTexture(t: Texture): boolean {
  for (let i = 3; i < t.rgba.length; i += 4) if (t.rgba[i] !== 255) return false
  return true
}
const outer = (f: Folded) => f.shade === 'outer' || (!!f.mono && f.mono.shade)

/** The glTF approximation of one material with a program; null when it has none. */
function approximate(scene: Scene, m: Material, added: Texture[]): { material: Material; colours: ColourUse } | null {
  const prog = m.program
  if (!prog) return null
  const look = prog.kind === 'n64' ? foldN64(prog.n64) : foldPica(prog.pica)
  const colours: ColourUse = { rgb: outer(look.colour), alpha: outer(look.alpha) }
  const out: Material = { ...m }
  delete out.program
  let approx = false
  const t0 = prog.kind === 'n64' ? prog.n64.textures[0] : prog.pica.textures[0]
  if (monoExact(scene, m, look, t0)) {
    const c = look.colour.mono!, a = look.alpha.mono
    out.baseColor = [c.k[0]!, c.k[1]!, c.k[2]!, m.alphaMode === 'OPAQUE' || !a ? 1 : a.k[0]!]
    if (m.alphaMode === 'OPAQUE') colours.alpha = false
    if (c.t0 && t0 !== null && t0 !== undefined) out.texture = t0
    else delete out.texture
  } else if (!bakeLayout(scene, prog.kind === 'n64' ? prog.n64.textures : prog.pica.textures)) {
    // No texture takes part: the program is one colour (with SHADE white).
    const c = bakeProgram(scene, m, prog).texture.rgba
    out.baseColor = [c[0]! / 255, c[1]! / 255, c[2]! / 255, c[3]! / 255]
    delete out.texture
    approx = look.colour.shade === 'inner' || look.alpha.shade === 'inner' || look.colour.approximate || look.alpha.approximate
  } else {
    const { texture, tiled } = bakeProgram(scene, m, prog)
    out.baseColor = [1, 1, 1, 1]
    out.texture = scene.textures.length + added.length
    added.push(texture)
    approx = look.colour.shade === 'inner' || look.alpha.shade === 'inner' || look.colour.approximate || look.alpha.approximate || !tiled
  }
  if (prog.kind === 'n64' && out.alphaMode === 'MASK' && (prog.n64.otherModeL & 3) === 1 && !((prog.n64.otherModeL >>> 12) & 1)) out.alphaCutoff = prog.n64.blend[3] / 255
  const mb = { ...((m.extras?.modbench as Record<string, unknown> | undefined) ?? {}), material: programJson(prog), ...(approx ? { approximate: true } : {}) }
  out.extras = { ...(m.extras ?? {}), modbench: mb }
  return { material: out, colours }
}

function primitiveColours(p: Primitive, use: ColourUse | undefined): Primitive {
  if (!use || !p.colors) return p
  const q = { ...p }
  if (!use.rgb && !use.alpha) {
    delete q.colors
    return q
  }
  if (use.rgb && use.alpha) return p
  const c = new Float32Array(p.colors)
  for (let i = 0; i < c.length; i += 4) {
    if (!use.rgb) c[i] = c[i + 1] = c[i + 2] = 1
    if (!use.alpha) c[i + 3] = 1
  }
  q.colors = c
  return q
}

/** The scene with its material programs turned into glTF-expressible materials (unchanged when none has one). */
export function gltfMaterialScene(scene: Scene): Scene {
  if (!scene.materials.some((m) => m.program)) return scene
  const added: Texture[] = []
  const uses = new Map<number, ColourUse>()
  const materials = scene.materials.map((m, i) => {
    const r = approximate(scene, m, added)
    if (!r) return m
    uses.set(i, r.colours)
    return r.material
  })
  const meshes = scene.meshes.map((mesh) => ({ ...mesh, primitives: mesh.primitives.map((p) => primitiveColours(p, uses.get(p.material))) }))
  return { ...scene, materials, meshes, textures: [...scene.textures, ...added] }
}
