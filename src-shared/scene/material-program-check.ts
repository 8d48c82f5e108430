/**
 * `validateScene`'s checks of a material's `program` (material-program.ts): the fields a shader
 * generator and the glTF exporter rely on are present, integral where they are register values,
 * in range, and name existing textures.
 */
import type { MaterialProgram, N64Program, PicaProgram } from './material-program'

type Bad = (path: string, message: string) => void

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
const u32 = (v: unknown): boolean => isInt(v) && v >= 0 && v <= 0xffffffff

function ints(bad: Bad, path: string, v: unknown, len: number, max: number): boolean {
  if (!Array.isArray(v) || v.length !== len) return bad(path, `must be ${len} integers`), false
  const i = v.findIndex((x) => !isInt(x) || x < 0 || x > max)
  if (i >= 0) return bad(`${path}[${i}]`, `must be an integer 0..${max}, got ${String(v[i])}`), false
  return true
}

function uvMatrix(bad: Bad, path: string, v: unknown): void {
  if (!Array.isArray(v) || v.length !== 6 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) bad(path, 'must be 6 finite numbers (a 2×3 UV matrix)')
}

function textureSlots(bad: Bad, path: string, textures: unknown, uv: unknown, nTextures: number, maxSlots: number): void {
  if (!Array.isArray(textures) || textures.length > maxSlots) return bad(`${path}.textures`, `must be an array of at most ${maxSlots} texture indices or null`)
  textures.forEach((t, k) => {
    if (t !== null && (!isInt(t) || t < 0 || t >= nTextures)) bad(`${path}.textures[${k}]`, `texture index ${String(t)} out of range (0..${nTextures - 1}, ${nTextures} textures)`)
  })
  if (!Array.isArray(uv) || uv.length !== textures.length) return bad(`${path}.uvTransforms`, `must have one UV matrix per texture slot (${textures.length})`)
  uv.forEach((m, k) => uvMatrix(bad, `${path}.uvTransforms[${k}]`, m))
}

function checkN64(bad: Bad, p: string, n: N64Program, nTextures: number): void {
  if (!Array.isArray(n.combine) || n.combine.length !== 2 || !isInt(n.combine[0]) || n.combine[0] < 0 || n.combine[0] > 0xffffff || !u32(n.combine[1])) {
    bad(`${p}.combine`, 'must be [w0 & 0xFFFFFF, w1] as unsigned integers')
  }
  if (n.cycles !== 1 && n.cycles !== 2) bad(`${p}.cycles`, `must be 1 or 2, got ${String(n.cycles)}`)
  for (const k of ['otherModeH', 'otherModeL', 'geometryMode'] as const) if (!u32(n[k])) bad(`${p}.${k}`, `must be an unsigned 32-bit integer, got ${String(n[k])}`)
  for (const k of ['prim', 'env', 'blend', 'fog'] as const) ints(bad, `${p}.${k}`, n[k], 4, 255)
  if (!isInt(n.primLodFrac) || n.primLodFrac < 0 || n.primLodFrac > 255) bad(`${p}.primLodFrac`, `must be an integer 0..255, got ${String(n.primLodFrac)}`)
  if (!isInt(n.primMinLevel) || n.primMinLevel < 0 || n.primMinLevel > 31) bad(`${p}.primMinLevel`, `must be an integer 0..31, got ${String(n.primMinLevel)}`)
  if (!Array.isArray(n.textures) || n.textures.length !== 2) bad(`${p}.textures`, 'must be [TEXEL0, TEXEL1] texture indices or null')
  else textureSlots(bad, p, n.textures, n.uvTransforms, nTextures, 2)
  if (!['point', 'bilinear3', 'average'].includes(n.filter)) bad(`${p}.filter`, `unknown filter ${String(n.filter)}`)
  if (n.texgen !== undefined && n.texgen !== 'sphere' && n.texgen !== 'linear') bad(`${p}.texgen`, `unknown texgen ${String(n.texgen)}`)
}

function checkPica(bad: Bad, p: string, q: PicaProgram, nTextures: number): void {
  if (!Array.isArray(q.stages) || q.stages.length > 6) return bad(`${p}.stages`, 'must be an array of at most 6 TexEnv stages')
  q.stages.forEach((s, i) => {
    const sp = `${p}.stages[${i}]`
    ints(bad, `${sp}.src`, s?.src, 6, 15)
    ints(bad, `${sp}.op`, s?.op, 6, 15)
    ints(bad, `${sp}.mode`, s?.mode, 2, 9)
    ints(bad, `${sp}.scale`, s?.scale, 2, 2)
    ints(bad, `${sp}.constant`, s?.constant, 4, 255)
  })
  ints(bad, `${p}.bufferColor`, q.bufferColor, 4, 255)
  if (!isInt(q.bufferUpdate) || q.bufferUpdate < 0 || q.bufferUpdate > 0xffff) bad(`${p}.bufferUpdate`, `must be the 16-bit register bits, got ${String(q.bufferUpdate)}`)
  textureSlots(bad, p, q.textures, q.uvTransforms, nTextures, 3)
  if (q.alphaTest !== undefined && (!isInt(q.alphaTest.func) || q.alphaTest.func < 0 || q.alphaTest.func > 7 || !isInt(q.alphaTest.ref) || q.alphaTest.ref < 0 || q.alphaTest.ref > 255)) {
    bad(`${p}.alphaTest`, 'must be { func: 0..7, ref: 0..255 }')
  }
  if (q.blend?.color !== undefined) ints(bad, `${p}.blend.color`, q.blend.color, 4, 255)
  if (q.lighting !== undefined) for (const k of ['emission', 'ambient', 'diffuse'] as const) ints(bad, `${p}.lighting.${k}`, q.lighting[k], 4, 255)
}

/** Reports the problems of one material program at `path` (e.g. `materials[3].program`). */
export function checkMaterialProgram(bad: Bad, path: string, program: MaterialProgram, nTextures: number): void {
  if (program === null || typeof program !== 'object') return bad(path, 'must be a material program object')
  if (program.kind === 'n64') {
    if (program.n64 === null || typeof program.n64 !== 'object') return bad(`${path}.n64`, 'an n64 program needs its n64 state')
    checkN64(bad, `${path}.n64`, program.n64, nTextures)
  } else if (program.kind === 'pica') {
    if (program.pica === null || typeof program.pica !== 'object') return bad(`${path}.pica`, 'a pica program needs its pica state')
    checkPica(bad, `${path}.pica`, program.pica, nTextures)
  } else bad(`${path}.kind`, `unknown program kind ${String((program as { kind?: unknown }).kind)}`)
}
