/**
 * PICA200 program → GLSL fragment shader and render state (materials.md §3): up to six TexEnv
 * stages unrolled, the previous-buffer lag as Citra has it (stage k reads the buffer as it was
 * before stage k − 1's update), alpha test, fragment lighting approximated by one directional
 * light (FragPrimary = emission + ambient + diffuse·max(N·L, 0), FragSecondary = 0).
 * Reads only the neutral `PicaProgram`. Constants, buffer colour and lighting colours are uniforms.
 */
import type { PicaProgram, PicaStage } from '@shared/scene/material-program'

const SOURCES: Record<number, string> = { 0: 'prim', 1: 'fragP', 2: 'fragS', 3: 't0', 4: 't1', 5: 't2', 13: 'buf', 14: 'uConst', 15: 'prev' }
function source(s: number, stage: number): string {
  const v = SOURCES[s]
  if (!v) return 'vec4(0.0)' // procedural texture (6) and unknown sources
  return v === 'uConst' ? `uConst${stage}` : v
}

/** Colour operand (§3): 0 rgb, 1 1−rgb, 2 aaa, 3 1−aaa, 4 rrr, 5 1−rrr, 8 ggg, 9 1−ggg, 12 bbb, 13 1−bbb. */
function colorOperand(op: number, v: string): string {
  const base = op >= 12 ? `vec3(${v}.b)` : op >= 8 ? `vec3(${v}.g)` : op >= 4 ? `vec3(${v}.r)` : op >= 2 ? `vec3(${v}.a)` : `${v}.rgb`
  return op & 1 ? `(vec3(1.0) - ${base})` : base
}

/** Alpha operand: 0 a, 1 1−a, 2 r, 3 1−r, 4 g, 5 1−g, 6 b, 7 1−b. */
function alphaOperand(op: number, v: string): string {
  const base = `${v}.${'argb'[(op >> 1) & 3]}`
  return op & 1 ? `(1.0 - ${base})` : base
}

/** Combiner `mode` over operands A, B, C of type vec3 (colour) or float (alpha). */
function combiner(mode: number, a: string, b: string, c: string, vec: boolean): string {
  const one = vec ? 'vec3(1.0)' : '1.0'
  const half = vec ? 'vec3(0.5)' : '0.5'
  switch (mode) {
    case 0: return a
    case 1: return `${a} * ${b}`
    case 2: return `min(${a} + ${b}, ${one})`
    case 3: return `clamp(${a} + ${b} - ${half}, 0.0, 1.0)`
    case 4: return `${a} * ${c} + ${b} * (${one} - ${c})`
    case 5: return `max(${a} - ${b}, ${vec ? 'vec3(0.0)' : '0.0'})`
    case 6:
    case 7: return vec ? `vec3(clamp(4.0 * dot(${a} - vec3(0.5), ${b} - vec3(0.5)), 0.0, 1.0))` : a
    case 8: return `min(${a} * ${b} + ${c}, ${one})`
    case 9: return `min(${a} + ${b}, ${one}) * ${c}`
    default: return a
  }
}

const SCALE = ['1.0', '2.0', '4.0']

function stageGlsl(s: PicaStage, k: number, update: number): string {
  const src = s.src.map((x) => source(x, k))
  const ca = [0, 1, 2].map((i) => colorOperand(s.op[i], src[i]))
  const aa = [3, 4, 5].map((i) => alphaOperand(s.op[i], src[i]))
  const rgb = `clamp((${combiner(s.mode[0], ca[0], ca[1], ca[2], true)}) * ${SCALE[s.scale[0]] ?? '1.0'}, 0.0, 1.0)`
  // Dot3_RGBA writes the dot product into alpha as well (§3).
  const a = s.mode[0] === 7 ? 'o.r' : `clamp((${combiner(s.mode[1], aa[0], aa[1], aa[2], false)}) * ${SCALE[s.scale[1]] ?? '1.0'}, 0.0, 1.0)`
  const lines = [`  // stage ${k}`, `  o.rgb = ${rgb};`, `  o.a = ${a};`]
  // Buffer (Citra): the stage read `buf`; the next stage reads the value written two stages back.
  lines.push('  buf = nextBuf;')
  if (k < 4 && update & (1 << (8 + k))) lines.push('  nextBuf.rgb = o.rgb;')
  if (k < 4 && update & (1 << (12 + k))) lines.push('  nextBuf.a = o.a;')
  lines.push('  prev = o;')
  return lines.join('\n')
}

/** Alpha test (GPUREG_FRAGOP_ALPHA_TEST) on 8-bit values: discard unless `a8 FUNC ref`. */
function alphaTestGlsl(p: PicaProgram): string {
  const t = p.alphaTest
  if (!t || t.func === 1) return ''
  const ops = ['', '', '==', '!=', '<', '<=', '>', '>=']
  if (t.func === 0) return '  discard;'
  return `  float a8 = floor(prev.a * 255.0 + 0.5);\n  if (!(a8 ${ops[t.func]} uAlphaRef)) discard;`
}

export type PicaBlendMode = 'opaque' | 'alpha' | 'add' | 'oneone'

/** GPU blending of a PICA program: PICA blend factors (6 src alpha, 7 1 − src alpha, 1 one). */
export function picaBlend(p: PicaProgram, fallbackBlend: boolean): PicaBlendMode {
  const b = p.blend
  if (!b) return fallbackBlend ? 'alpha' : 'opaque'
  if (!b.enabled) return 'opaque'
  if (b.colorSrc === 1 && b.colorDst === 0) return 'opaque'
  if (b.colorSrc === 6 && b.colorDst === 1) return 'add'
  if (b.colorSrc === 1 && b.colorDst === 1) return 'oneone'
  return 'alpha'
}

export function picaFragment(p: PicaProgram): string {
  const stages = p.stages.slice(0, 6)
  return `precision highp float;
varying vec2 vUV0;
varying vec2 vUV1;
varying vec2 vUV2;
varying vec4 vColor;
varying vec3 vNormalW;
uniform sampler2D tex0;
uniform sampler2D tex1;
uniform sampler2D tex2;
uniform vec4 uTexOn;
${stages.map((_, k) => `uniform vec4 uConst${k};`).join('\n')}
uniform vec4 uBuffer;
uniform vec4 uEmission;
uniform vec4 uAmbientCol;
uniform vec4 uDiffuse;
uniform vec3 uLightDir;
uniform float uLightOn;
uniform float uAlphaRef;
uniform float uOpaque;
void main(void) {
  vec4 prim = vColor;
  vec4 t0 = mix(vec4(1.0), texture2D(tex0, vUV0), uTexOn.x);
  vec4 t1 = mix(vec4(1.0), texture2D(tex1, vUV1), uTexOn.y);
  vec4 t2 = mix(vec4(1.0), texture2D(tex2, vUV2), uTexOn.z);
  float nl = uLightOn > 0.5 ? max(dot(normalize(vNormalW), uLightDir), 0.0) : 1.0;
  vec4 fragP = clamp(uEmission + uAmbientCol + uDiffuse * nl, 0.0, 1.0);
  vec4 fragS = vec4(0.0);
  vec4 prev = vec4(0.0);
  vec4 buf = vec4(0.0);
  vec4 nextBuf = uBuffer;
  vec4 o = vec4(0.0);
${stages.map((s, k) => stageGlsl(s, k, p.bufferUpdate)).join('\n')}
${alphaTestGlsl(p)}
  gl_FragColor = vec4(prev.rgb, mix(prev.a, 1.0, uOpaque));
}
`
}
