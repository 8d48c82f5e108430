/**
 * GFMaterial (spec §6.4) and its texture units GFTextureCoord (§6.5); SPICA `GFMaterial.cs`,
 * `GFTextureCoord.cs`, Ohana3DS-Rebirth `GfModel.cs` (the 0xAC fixed run). The render state the
 * viewport can show (cull, blend, alpha test, depth) is decoded from the material's command list.
 */
import type { Reader } from '../../binary/reader'
import { picaRegisters, picaWrites, readPicaCommands } from './pica-commands'
import { finiteF32, readFloats, readHashName, readSection } from './gf-strings'

export type GfWrap = 'clamp-edge' | 'clamp-border' | 'repeat' | 'mirror'
const WRAPS: GfWrap[] = ['clamp-edge', 'clamp-border', 'repeat', 'mirror']

export interface GfTextureUnit {
  texture: string
  unit: number
  /** 0 UV map, 1 camera cube env, 2 camera sphere env, 3 projection, 4 shadow, 5 shadow box. */
  mapping: number
  scale: [number, number]
  rotation: number
  translation: [number, number]
  wrapU: GfWrap
  wrapV: GfWrap
  magFilter: number
  minFilter: number
  minLod: number
}

export interface GfRenderState {
  /** 0 none, 1 front, 2 back (FACECULLING_CONFIG bits 0–1). */
  cull: number
  blend: { enabled: boolean; colorEq: number; alphaEq: number; colorSrc: number; colorDst: number; alphaSrc: number; alphaDst: number }
  alphaTest: { enabled: boolean; func: number; ref: number }
  depth: { test: boolean; func: number; write: boolean }
}

export interface GfMaterial {
  name: string
  shader: string
  vertexShader: string
  fragmentShader: string
  lutHashes: [number, number, number]
  bumpUnit: number
  /** Which of the six constant colours each TexEnv stage 0–5 uses (SPICA `ConstantNAssignment`). */
  constantAssignments: number[]
  colors: { constant: number[][]; specular0: number[]; specular1: number[]; blend: number[]; emission: number[]; ambient: number[]; diffuse: number[] }
  units: GfTextureUnit[]
  renderPriority: number
  renderLayer: number
  state: GfRenderState
  /** Absolute offset of the material's section header. */
  offset: number
}

function wrap(r: Reader, field: string): GfWrap {
  const at = r.pos
  const v = r.u32(field)
  const w = WRAPS[v]
  if (!w) throw r.error(`${field}: wrap mode ${v} is not 0–3`, at)
  return w
}

function readTextureUnit(r: Reader, i: number): GfTextureUnit {
  const f = `texture unit ${i}`
  const texture = readHashName(r, `${f} texture name`).name
  const unit = r.u8(`${f} unit index`)
  const mapping = r.u8(`${f} mapping type`)
  const scale = readFloats(r, 2, `${f} scale`) as [number, number]
  const rotation = finiteF32(r, `${f} rotation`)
  const translation = readFloats(r, 2, `${f} translation`) as [number, number]
  const wrapU = wrap(r, `${f} wrap U`)
  const wrapV = wrap(r, `${f} wrap V`)
  return { texture, unit, mapping, scale, rotation, translation, wrapU, wrapV, magFilter: r.u32(`${f} mag filter`), minFilter: r.u32(`${f} min filter`), minLod: r.u32(`${f} min LOD`) }
}

function rgba(r: Reader, field: string): number[] {
  return [r.u8(field), r.u8(field), r.u8(field), r.u8(field)]
}

/** Render state from the final register values (spec §6.4 bit layouts). */
export function renderState(regs: Map<number, number>): GfRenderState {
  const bf = regs.get(0x101) ?? 0x01010000 // add, source one, destination zero
  const co = regs.get(0x100) ?? 0
  const at = regs.get(0x104) ?? 0
  const dc = regs.get(0x107) ?? 0x1f01
  const colorSrc = (bf >>> 16) & 0xf, colorDst = (bf >>> 20) & 0xf
  return {
    cull: (regs.get(0x040) ?? 0) & 3,
    blend: {
      enabled: (co & 0x100) !== 0 && !(colorSrc === 1 && colorDst === 0),
      colorEq: bf & 7, alphaEq: (bf >>> 8) & 7, colorSrc, colorDst, alphaSrc: (bf >>> 24) & 0xf, alphaDst: (bf >>> 28) & 0xf,
    },
    alphaTest: { enabled: (at & 1) === 1, func: (at >>> 4) & 7, ref: (at >>> 8) & 0xff },
    depth: { test: (dc & 1) === 1, func: (dc >>> 4) & 7, write: ((dc >>> 12) & 1) === 1 },
  }
}

/** Reads one `"material"` section at the reader's position; leaves the reader after the section. */
export function readGfMaterial(r: Reader, index: number): GfMaterial {
  const offset = r.base + r.pos
  const label = `${r.structure ? `${r.structure} ` : ''}GFMaterial[${index}]`
  const sec = readSection(r, 'material', label)
  const body = r.sub(sec.bodyStart, sec.length, label)
  // Alignment inside the section is relative to the entry start: body offsets are shifted by bodyStart.
  const align16 = () => { const abs = sec.bodyStart + body.pos; body.skip((16 - (abs % 16)) % 16, 'padding') }
  const name = readHashName(body, 'material name').name
  body.structure = `${label} '${name}'`
  const shader = readHashName(body, 'shader name').name
  const vertexShader = readHashName(body, 'vertex shader name').name
  const fragmentShader = readHashName(body, 'fragment shader name').name
  const lutHashes: [number, number, number] = [body.u32('LUT0 hash'), body.u32('LUT1 hash'), body.u32('LUT2 hash')]
  body.skip(4, 'padding')
  const bumpUnit = body.i8('bump texture unit')
  const constantAssignments = [0, 1, 2, 3, 4, 5].map((k) => body.u8(`constant ${k} assignment`))
  body.skip(1, 'padding')
  const constant = [0, 1, 2, 3, 4, 5].map((k) => rgba(body, `Constant${k}`))
  const [specular0, specular1, blend, emission, ambient, diffuse] = ['Specular0', 'Specular1', 'Blend', 'Emission', 'Ambient', 'Diffuse'].map((f) => rgba(body, f)) as number[][]
  body.skip(16 + 16 + 8 + 36 + 4 + 16, 'edge, rim, phong, bake and shader parameters')
  const unitCount = body.u32('texture unit count')
  if (unitCount > 3) throw body.error(`texture unit count ${unitCount} is more than 3`, body.pos - 4)
  const units: GfTextureUnit[] = []
  for (let i = 0; i < unitCount; i++) units.push(readTextureUnit(body, i))
  align16()
  const cmdLen = body.u32('command length')
  const renderPriority = body.i32('render priority')
  body.skip(4, 'unknown')
  const renderLayer = body.i32('render layer')
  body.skip(16, 'LUT hashes and unknown hash')
  const cmds = readPicaCommands(body, body.pos, cmdLen, `${body.structure} command list`)
  const state = renderState(picaRegisters(picaWrites(cmds)))
  r.seek(sec.bodyStart + sec.length)
  return {
    name, shader, vertexShader, fragmentShader, lutHashes, bumpUnit, constantAssignments,
    colors: { constant, specular0: specular0!, specular1: specular1!, blend: blend!, emission: emission!, ambient: ambient!, diffuse: diffuse! },
    units, renderPriority, renderLayer, state, offset,
  }
}
