/**
 * The material program of the neutral scene (materials.md §7): plain data that describes a game
 * material's pixel pipeline — the N64 RDP combiner/blender state of a draw call, or the PICA200
 * TexEnv stages of a GF material — so that the viewport can draw it as the console does and the
 * glTF exporter can approximate it. The material's glTF-like fields (base colour, texture, alpha
 * mode) stay beside it as the simple fallback.
 *
 * Raw register words are kept as the hardware sees them (decode them with the spec's tables);
 * a few decoded convenience fields (cycle count, filter, texgen) are filled in by the builders.
 * Colours are 8-bit integers 0..255 (display values, materials.md §6).
 */

/** An 8-bit RGBA colour, each component an integer 0..255. */
export type RGBA8 = [number, number, number, number]

/**
 * A 2×3 affine texture-coordinate transform, column-major like glTF: a texture slot samples at
 * `u' = m[0]·u + m[2]·v + m[4]`, `v' = m[1]·u + m[3]·v + m[5]` where (u, v) are the primitive's
 * `uvs` (neutral convention). Identity = [1, 0, 0, 1, 0, 0].
 */
export type UVMatrix = [number, number, number, number, number, number]

export const UV_IDENTITY: Readonly<UVMatrix> = [1, 0, 0, 1, 0, 0]

/** N64 RDP state of a draw call (materials.md §2, §7). */
export interface N64Program {
  /** `G_SETCOMBINE` w0 (low 24 bits, opcode dropped) and w1 (§2.2). */
  combine: [number, number]
  /** otherModeH CYCLETYPE: 1-cycle (copy / fill mapped to 1) or 2-cycle. */
  cycles: 1 | 2
  otherModeH: number
  otherModeL: number
  /** F3DEX2 geometry mode (G_LIGHTING 0x20000, G_FOG 0x10000, G_TEXTURE_GEN 0x40000, …). */
  geometryMode: number
  /** `G_SETPRIMCOLOR` RGBA, its LOD fraction (w0 bits 0–7) and minimum level (w0 bits 8–12). */
  prim: RGBA8
  primLodFrac: number
  primMinLevel: number
  env: RGBA8
  /** Blend colour: its alpha is the alpha-compare threshold (§2.4). */
  blend: RGBA8
  fog: RGBA8
  /** Scene texture indices for TEXEL0 / TEXEL1 (tiles t and t + 1); null when absent. */
  textures: [number | null, number | null]
  /**
   * Per texture slot: the tile's UV transform relative to the primitive's `uvs` (which are made
   * for TEXEL0's tile, so slot 0 is normally the identity; TEXEL1's tile may have another size,
   * shift or origin, §2.3).
   */
  uvTransforms: [UVMatrix, UVMatrix]
  /** otherModeH TEXTFILT: 0 point, 2 bilinear (the RDP's 3-point filter), 3 average (§2.6). */
  filter: 'point' | 'bilinear3' | 'average'
  /** G_TEXTURE_GEN (sphere) / G_TEXTURE_GEN_LINEAR (linear) with lighting on (§2.7). */
  texgen?: 'sphere' | 'linear'
}

/** One PICA200 TexEnv stage (materials.md §3; register layout gf-packages.md §8). */
export interface PicaStage {
  /** Sources: colour A, B, C, then alpha A, B, C (0 primary, 1 frag primary, 2 frag secondary, 3–6 textures 0–3, 13 previous buffer, 14 constant, 15 previous). */
  src: [number, number, number, number, number, number]
  /** Operands: colour A, B, C (0 rgb, 1 1−rgb, 2 aaa, 3 1−aaa, 4 rrr, …), then alpha A, B, C (0 a, 1 1−a, 2 r, …). */
  op: [number, number, number, number, number, number]
  /** Combiner: colour, alpha (0 replace, 1 modulate, 2 add, 3 add signed, 4 interpolate, 5 subtract, 6 dot3 RGB, 7 dot3 RGBA, 8 mult-add, 9 add-mult). */
  mode: [number, number]
  /** Scale: colour, alpha (0 ×1, 1 ×2, 2 ×4). */
  scale: [number, number]
  /** The stage's constant colour (the material's constant assigned to this stage). */
  constant: RGBA8
}

/** PICA blend state (GPUREG_BLEND_FUNC 0x101, colour operation 0x100). */
export interface PicaBlend {
  enabled: boolean
  colorEq: number
  alphaEq: number
  colorSrc: number
  colorDst: number
  alphaSrc: number
  alphaDst: number
  /** GPUREG_BLEND_COLOR RGBA8 (the blend constant). */
  color?: RGBA8
}

/** PICA200 fragment pipeline of a GF material (materials.md §3, §7). */
export interface PicaProgram {
  /** Up to six stages, stage 0 first. Missing stages are pass-through. */
  stages: PicaStage[]
  /** GPUREG_TEXENV_BUFFER_COLOR (0xFD). */
  bufferColor: RGBA8
  /** GPUREG_TEXENV_UPDATE_BUFFER (0xE0) bits 8–15: bits 8–11 colour, 12–15 alpha, bit 8 + k = stage k. */
  bufferUpdate: number
  /** Scene texture indices of texture units 0–2 (null: unit unused or its texture missing). */
  textures: (number | null)[]
  /** Per texture unit, its UV transform relative to the primitive's `uvs` (same length as `textures`). */
  uvTransforms: UVMatrix[]
  /** Alpha test (GPUREG_FRAGOP_ALPHA_TEST): func 0 never, 1 always, 2 =, 3 ≠, 4 <, 5 ≤, 6 >, 7 ≥; ref 0..255. Absent: off. */
  alphaTest?: { func: number; ref: number }
  blend?: PicaBlend
  /**
   * Inputs the fragment-lighting sources (1, 2) are approximated from (§3 "Fragment lighting"):
   * FragPrimary ≈ emission + ambient + diffuse·max(N·L, 0), FragSecondary ≈ 0.
   */
  lighting?: { emission: RGBA8; ambient: RGBA8; diffuse: RGBA8 }
}

/** A material's pixel pipeline: one of the two machines (materials.md §7). */
export type MaterialProgram = { kind: 'n64'; n64: N64Program } | { kind: 'pica'; pica: PicaProgram }

/**
 * A key equal for two programs that can share one generated shader: the register words and
 * which texture slots are present, without the per-material inputs (colours, LOD fraction,
 * texture indices, UV matrices, PICA constants), which are uniforms (materials.md §7).
 */
export function programShaderKey(p: MaterialProgram): string {
  const slots = (t: readonly (number | null)[]) => t.map((x) => (x === null ? '-' : 'T')).join('')
  if (p.kind === 'n64') {
    const n = p.n64
    return ['n64', n.combine[0], n.combine[1], n.cycles, n.otherModeH, n.otherModeL, n.geometryMode, n.filter, n.texgen ?? '', slots(n.textures)].join(':')
  }
  const q = p.pica
  const stages = q.stages.map((s) => [...s.src, ...s.op, ...s.mode, ...s.scale].join(',')).join('|')
  return ['pica', stages, q.bufferUpdate, slots(q.textures), q.alphaTest ? `${q.alphaTest.func}` : '', q.lighting ? 'L' : ''].join(':')
}
