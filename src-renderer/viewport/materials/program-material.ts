/**
 * Game materials in the viewport: a Babylon ShaderMaterial per neutral material that carries a
 * `program` (materials.md §7), drawing the N64 combiner/blender or the PICA TexEnv stages.
 * Shaders are generated once per distinct program key (`programShaderKey`) and registered in Babylon's ShaderStore
 * under a name made from the key, so materials with equal keys share one compiled effect; the
 * per-material inputs (colours, constants, UV transforms, textures) are uniforms.
 *
 * Colour space (§6): textures are uploaded as-is (no sRGB decode), the shader writes the formula's
 * output straight to the canvas (ShaderMaterial has no image processing), opaque draws write
 * alpha 1 so the canvas shows the colour unchanged.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial.js'
import { ShaderStore } from '@babylonjs/core/Engines/shaderStore.js'
import { Material as BMaterial } from '@babylonjs/core/Materials/material.js'
import { RawTexture } from '@babylonjs/core/Materials/Textures/rawTexture.js'
import type { Texture } from '@babylonjs/core/Materials/Textures/texture.js'
import { Vector2, Vector3, Vector4 } from '@babylonjs/core/Maths/math.vector.js'
import { Constants } from '@babylonjs/core/Engines/constants.js'
import '@babylonjs/core/Shaders/ShadersInclude/bonesDeclaration.js'
import '@babylonjs/core/Shaders/ShadersInclude/bonesVertex.js'
import type { Material } from '@shared/scene/types'
import { programShaderKey, type MaterialProgram, type RGBA8, type UVMatrix } from '@shared/scene/material-program'
import { GEO, n64Fragment, n64RenderState } from './n64-glsl'
import { picaBlend, picaFragment } from './pica-glsl'
import { vertexGlsl, vertexUniforms } from './vertex-glsl'

/** A material's game-program drawing: its ShaderMaterial and the shader key it uses. */
export interface ProgramMaterial {
  material: ShaderMaterial
  key: string
  program: MaterialProgram
  /** Texture slots (scene texture indices or null). */
  slots: (number | null)[]
  /** Uniform values changed in place each frame, and what is bound now. */
  state: { texOn: Vector4; uvAnim: Vector4; prim: Vector4; bound: (Texture | null)[]; flags: number }
}

/** What the shader needs from the viewport now. */
export interface ProgramInputs {
  textures: boolean
  lighting: boolean
  vertexColors: boolean
  /** Texture of slot 0 now (a texture-swap track), the material's UV offset/scale now. */
  texture0: number | undefined
  uv: [number, number, number, number]
  textureFor(t: number): Texture
  white: Texture
  /** PRIMITIVE now (0..1) when an animation drives it, else the program's own. */
  prim?: readonly number[]
}

// The viewport's directional light (viewport.ts 'viewport/sun' points along (−0.4, −1, −0.6)):
// N·L uses the direction toward the light. Ambient + diffuse ≈ the hemispheric + sun lights.
const LIGHT_DIR = new Vector3(0.4, 1, 0.6).normalize()
const LIGHT_COL = new Vector3(0.62, 0.62, 0.62)
const AMBIENT = new Vector3(0.38, 0.38, 0.4)

/** Shader names by program key, for every scene of the page (ShaderStore is global). */
const registered = new Map<string, string>()

function shaderName(key: string, vertex: () => string, fragment: () => string): string {
  let name = registered.get(key)
  if (!name) {
    name = `modbenchProgram${registered.size}`
    ShaderStore.ShadersStore[`${name}VertexShader`] = vertex()
    ShaderStore.ShadersStore[`${name}FragmentShader`] = fragment()
    registered.set(key, name)
  }
  return name
}

/**
 * The program's shader key (equal keys: one shader): the shared `programShaderKey`, which holds
 * every field the generators read as code (combine words, cycles, otherModeL, geometry mode,
 * texgen; PICA stages, buffer-update bits, alpha-test function) and leaves the uniforms out.
 */
export const programKey = programShaderKey

const v4 = (c: RGBA8 | readonly number[]) => new Vector4(c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)

const N64_UNIFORMS = ['uTexOn', 'uPrim', 'uEnv', 'uBlend', 'uFog', 'uPrimLodFrac', 'uOpaque', 'uNoiseSeed']
const PICA_UNIFORMS = ['uTexOn', 'uBuffer', 'uEmission', 'uAmbientCol', 'uDiffuse', 'uLightDir', 'uLightOn', 'uAlphaRef', 'uOpaque', ...[0, 1, 2, 3, 4, 5].map((k) => `uConst${k}`)]

/** Makes the ShaderMaterial of a neutral material's program (null without one). */
export function makeProgramMaterial(bscene: BScene, m: Material, name: string): ProgramMaterial | null {
  const prog = m.program
  if (!prog) return null
  const key = programKey(prog)
  let blend: string
  let depthWrite = true
  let decal = false
  let slots: (number | null)[]
  let shader: string
  if (prog.kind === 'n64') {
    const p = prog.n64
    slots = [...p.textures]
    const geo = p.geometryMode
    shader = shaderName(key, () => vertexGlsl({ slots: 2, lit: !!(geo & GEO.LIGHTING), fog: !!(geo & GEO.FOG), texgen: p.texgen }), () => n64Fragment(p))
    const rs = n64RenderState(p)
    blend = rs.blend
    depthWrite = rs.depthWrite || blend === 'opaque'
    decal = rs.decal
  } else {
    const p = prog.pica
    slots = [0, 1, 2].map((k) => p.textures[k] ?? null)
    shader = shaderName(key, () => vertexGlsl({ slots: 3 }), () => picaFragment(p))
    blend = picaBlend(p, m.alphaMode === 'BLEND')
    depthWrite = blend === 'opaque'
  }
  const mat = new ShaderMaterial(`${name}/program`, bscene, shader, {
    attributes: ['position', 'normal', 'uv'],
    uniforms: [...vertexUniforms(prog.kind === 'n64' ? 2 : 3), ...(prog.kind === 'n64' ? N64_UNIFORMS : PICA_UNIFORMS)],
    samplers: ['tex0', 'tex1', 'tex2'],
    needAlphaBlending: blend !== 'opaque',
  })
  mat.sideOrientation = BMaterial.CounterClockWiseSideOrientation
  mat.alphaMode = blend === 'add' ? Constants.ALPHA_ADD : blend === 'oneone' ? Constants.ALPHA_ONEONE : Constants.ALPHA_COMBINE
  mat.disableDepthWrite = !depthWrite
  if (decal) mat.zOffset = -2
  mat.setFloat('uOpaque', blend === 'opaque' ? 1 : 0)
  const state = { texOn: new Vector4(0, 0, 0, 0), uvAnim: new Vector4(0, 0, 1, 1), prim: v4(prog.kind === 'n64' ? prog.n64.prim : [255, 255, 255, 255]), bound: [null, null, null], flags: -1 }
  mat.setVector4('uTexOn', state.texOn)
  mat.setVector4('uUVAnim', state.uvAnim)
  mat.setVector3('uLightDir', LIGHT_DIR)
  mat.setVector3('uLightCol', LIGHT_COL)
  mat.setVector3('uAmbient', AMBIENT)
  setConstants(mat, prog)
  if (prog.kind === 'n64') mat.setVector4('uPrim', state.prim)
  return { material: mat, key, program: prog, slots, state }
}

function setUV(mat: ShaderMaterial, k: number, t: UVMatrix | undefined): void {
  const u = t ?? [1, 0, 0, 1, 0, 0]
  mat.setVector4(`uUV${k}a`, new Vector4(u[0], u[1], u[2], u[3]))
  mat.setVector2(`uUV${k}b`, new Vector2(u[4], u[5]))
}

/** The program's fixed inputs: colours, constants, UV transforms. */
function setConstants(mat: ShaderMaterial, prog: MaterialProgram): void {
  if (prog.kind === 'n64') {
    const p = prog.n64
    mat.setVector4('uEnv', v4(p.env))
    mat.setVector4('uBlend', v4(p.blend))
    mat.setVector4('uFog', v4(p.fog))
    mat.setFloat('uPrimLodFrac', p.primLodFrac / 255)
    mat.setFloat('uNoiseSeed', 0)
    p.uvTransforms.forEach((t, k) => setUV(mat, k, t))
    return
  }
  const p = prog.pica
  for (let k = 0; k < 6; k++) mat.setVector4(`uConst${k}`, v4(p.stages[k]?.constant ?? [0, 0, 0, 0]))
  mat.setVector4('uBuffer', v4(p.bufferColor))
  const l = p.lighting
  // Without the material's light colours: a grey ambient + diffuse (white when lighting is off).
  mat.setVector4('uEmission', l ? v4(l.emission) : new Vector4(0, 0, 0, 0))
  mat.setVector4('uAmbientCol', l ? v4(l.ambient) : new Vector4(0.4, 0.4, 0.4, 0))
  mat.setVector4('uDiffuse', l ? v4(l.diffuse) : new Vector4(0.6, 0.6, 0.6, 1))
  mat.setFloat('uAlphaRef', p.alphaTest?.ref ?? 0)
  for (let k = 0; k < 3; k++) setUV(mat, k, p.uvTransforms[k])
}

/**
 * Per-frame state: textures (swaps), UV animation, PRIM from a colour track, toggles. The vectors
 * were handed to the material once (makeProgramMaterial) and change in place; textures and floats
 * are set only when they change (this runs for every material on every animated frame).
 */
export function applyProgram(pm: ProgramMaterial, rest: number | undefined, cull: boolean, i: ProgramInputs): void {
  const mat = pm.material
  const st = pm.state
  if (mat.backFaceCulling !== cull) mat.backFaceCulling = cull
  for (let k = 0; k < 3; k++) {
    const t = pm.slots[k] ?? null
    // A texture-swap track replaces the material's texture: the slot that shows it at rest follows.
    const now = k === 0 && t !== null && t === rest ? i.texture0 : t
    const use = i.textures && now !== undefined && now !== null
    const tex = use ? i.textureFor(now) : i.white
    const on = use ? 1 : 0
    if (k === 0) st.texOn.x = on
    else if (k === 1) st.texOn.y = on
    else st.texOn.z = on
    if (st.bound[k] !== tex) {
      st.bound[k] = tex
      mat.setTexture(`tex${k}`, tex)
    }
  }
  st.uvAnim.set(i.uv[0], i.uv[1], i.uv[2], i.uv[3])
  if (i.prim) st.prim.set(i.prim[0], i.prim[1], i.prim[2], i.prim[3])
  const flags = (i.vertexColors ? 1 : 0) | (i.lighting ? 2 : 0)
  if (flags !== st.flags) {
    st.flags = flags
    mat.setFloat('uVColOn', i.vertexColors ? 1 : 0)
    mat.setFloat('uLightOn', i.lighting ? 1 : 0)
  }
}

const whites = new WeakMap<BScene, Texture>()
/** The scene's 1×1 white texture for empty slots (made once per Babylon scene). */
export function whiteTexture(bscene: BScene): Texture {
  let t = whites.get(bscene)
  if (!t || !t.getInternalTexture()) {
    t = RawTexture.CreateRGBATexture(new Uint8Array([255, 255, 255, 255]), 1, 1, bscene, false, false)
    t.name = 'viewport/white'
    whites.set(bscene, t)
  }
  return t
}

/** How many distinct shaders (program keys) a set of program materials uses. */
export function shaderCount(pms: readonly (ProgramMaterial | undefined)[]): number {
  return new Set(pms.filter((p) => p).map((p) => p!.key)).size
}
