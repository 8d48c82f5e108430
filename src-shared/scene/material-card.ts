/**
 * The material test card (Help → Material test card): one flat quad per test vector of
 * materials.md §5 — the N64 combiner/blender vectors N1–N9 and the PICA TexEnv vectors P1–P4 —
 * with the spec's inputs (textures, prim/env/blend colours, shade as vertex colour, the quad
 * behind as "mem"), and two more: F1, fog by the blender's cycle 0 (`G_RM_FOG_PRIM_A` then
 * `G_RM_AA_ZB_OPA_SURF2`, §2.5), and G1, spherical texgen (§2.7: a quad facing the camera reads
 * the texture's centre, s = t = ½, while its own UVs point at a corner). Drawn head-on with lighting off, the centre of each quad shows the vector's
 * expected colour; the pixel tests read them there. Quads lie in the XY plane facing +Z.
 */
import type { Material, Primitive, Scene, SceneNode, Texture } from './types'
import type { N64Program, PicaProgram, PicaStage, RGBA8 } from './material-program'

/** One quad of the card: its vector id and centre (world units, z = 0 plane). */
export interface CardCell {
  id: string
  x: number
  y: number
}

/** Quad side and pitch (world units); the card is COLS × rows cells centred on the origin. */
export const CARD_QUAD = 1.6
export const CARD_PITCH = 2
const COLS = 5
/** How far behind its quad a "mem" quad lies. */
const MEM_DEPTH = 0.3

const I = [1, 0, 0, 1, 0, 0] as [number, number, number, number, number, number]
const G_SHADE_SMOOTH = 0x200004 // G_SHADE | G_SHADING_SMOOTH: shade is the vertex colour (no G_LIGHTING)
const CYC2 = 0x00100000 // otherModeH CYCLETYPE = 2-cycle
const G_TEXGEN_LIT = G_SHADE_SMOOTH | 0x20000 | 0x40000 // + G_LIGHTING | G_TEXTURE_GEN

function flat(name: string, c: RGBA8): Texture {
  const rgba = new Uint8Array(4 * 4 * 4)
  for (let i = 0; i < 16; i++) rgba.set(c, i * 4)
  return { name, width: 4, height: 4, rgba, wrapS: 'repeat', wrapT: 'repeat', filter: 'nearest' }
}

// Texture indices of the card.
const T0 = 0 // N64 TEXEL0: RGBA16 (200,120,48) decoded (§5.1)
const T1 = 1 // N64 TEXEL1: RGBA16 (40,168,224) decoded
const P0 = 2 // PICA texture 0
const P1 = 3 // PICA texture 1 (alpha 64, P2)
const TG = 4 // texgen texture: centre 2×2 texels (240,40,200), the rest (30,90,60)

/** The texgen texture (G1): a 4×4 whose centre differs from its border. */
function centred(): Texture {
  const t = flat('TG', [30, 90, 60, 255])
  for (const [x, y] of [[1, 1], [2, 1], [1, 2], [2, 2]]) t.rgba.set([240, 40, 200, 255], (y * 4 + x) * 4)
  return t
}

interface N64Vector {
  id: string
  combine: [number, number]
  cycles: 1 | 2
  otherModeL: number
  prim?: RGBA8
  env?: RGBA8
  blend?: RGBA8
  primLodFrac?: number
  fog?: RGBA8
  /** Spherical texgen on the texgen texture (G1). */
  texgen?: boolean
  shade: RGBA8
  /** Shade of the opaque TEXEL0×SHADE quad behind (the "mem" pixel). */
  mem?: RGBA8
}

/** materials.md §5.1 inputs (words as the table gives them, w0 without its opcode byte). */
const N64_VECTORS: N64Vector[] = [
  { id: 'N1', combine: [0x121824, 0xff33ffff], cycles: 1, otherModeL: 0x0f0a2230, shade: [180, 210, 90, 255] },
  { id: 'N2', combine: [0x119623, 0xff2fffff], cycles: 1, otherModeL: 0x0f0a2230, prim: [230, 100, 160, 255], shade: [120, 200, 255, 255] },
  { id: 'N3', combine: [0x30fe61, 0x55fefd7e], cycles: 1, otherModeL: 0x0f0a2230, prim: [250, 40, 40, 255], env: [20, 60, 220, 255], shade: [200, 200, 200, 255] },
  { id: 'N4', combine: [0x272c04, 0x1f1093ff], cycles: 2, otherModeL: 0x0f0a2230, primLodFrac: 96, shade: [230, 230, 160, 255] },
  { id: 'N5', combine: [0x1218ac, 0xf0fffe38], cycles: 2, otherModeL: 0x0f0a2230, env: [40, 220, 200, 100], shade: [200, 160, 255, 255] },
  { id: 'N6', combine: [0xffffff, 0xfffdf6fb], cycles: 1, otherModeL: 0x0f0a2230, prim: [70, 190, 110, 255], shade: [255, 60, 60, 255] },
  { id: 'N7', combine: [0x127e24, 0xfffff7fb], cycles: 1, otherModeL: 0x00504a50, prim: [90, 90, 250, 128], shade: [255, 255, 255, 255], mem: [40, 80, 255, 255] },
  { id: 'N8', combine: [0x121624, 0xff2fffff], cycles: 1, otherModeL: 0x0f0a0231, prim: [255, 255, 255, 48], blend: [0, 0, 0, 16], shade: [150, 255, 200, 255] },
  { id: 'N9', combine: [0x121603, 0xfffffff8], cycles: 2, otherModeL: 0x0f0a0231, prim: [255, 255, 255, 8], blend: [0, 0, 0, 64], shade: [255, 255, 255, 255], mem: [255, 160, 40, 255] },
  // TEXEL0 × SHADE | COMBINED (alpha the same); blender cycle 0 CLR_FOG·A_FOG + CLR_IN·1MA, cycle 1 OPA_SURF2.
  { id: 'F1', combine: [0x1219ff, 0xfffffe38], cycles: 2, otherModeL: 0xc4112078, fog: [40, 200, 120, 96], shade: [200, 200, 200, 255] },
  // TEXEL0 × SHADE with G_LIGHTING | G_TEXTURE_GEN (sphere); the quad's UVs sit in the texture's corner.
  { id: 'G1', combine: [0x121824, 0xff33ffff], cycles: 1, otherModeL: 0x0f0a2230, texgen: true, shade: [255, 255, 255, 255] },
]

function n64Program(v: Pick<N64Vector, 'combine' | 'cycles' | 'otherModeL' | 'prim' | 'env' | 'blend' | 'primLodFrac' | 'fog' | 'texgen'>): N64Program {
  return {
    combine: v.combine, cycles: v.cycles, otherModeH: v.cycles === 2 ? CYC2 : 0, otherModeL: v.otherModeL, geometryMode: v.texgen ? G_TEXGEN_LIT : G_SHADE_SMOOTH,
    prim: v.prim ?? [255, 255, 255, 255], primLodFrac: v.primLodFrac ?? 0, primMinLevel: 0,
    env: v.env ?? [0, 0, 0, 255], blend: v.blend ?? [0, 0, 0, 0], fog: v.fog ?? [0, 0, 0, 255],
    textures: v.texgen ? [TG, null] : [T0, T1], uvTransforms: [[...I], [...I]], filter: 'point',
    ...(v.texgen ? { texgen: 'sphere' as const } : {}),
  }
}

const stage = (src: PicaStage['src'], mode: PicaStage['mode'], o: Partial<PicaStage> = {}): PicaStage => ({ src, op: [0, 0, 0, 0, 0, 0], mode, scale: [0, 0], constant: [0, 0, 0, 255], ...o })
const TEX0 = 3, TEX1 = 4, PRIMARY = 0, FRAG = 1, BUFFER = 13, CONST = 14, PREV = 15

interface PicaVector { id: string; stages: PicaStage[]; vertex?: RGBA8; frag?: RGBA8; bufferColor?: RGBA8; bufferUpdate?: number }

/** materials.md §5.2 inputs. */
const PICA_VECTORS: PicaVector[] = [
  { id: 'P1', stages: [stage([TEX0, PRIMARY, 0, TEX0, PRIMARY, 0], [1, 1])], vertex: [128, 255, 64, 200] },
  { id: 'P2', stages: [stage([TEX0, CONST, TEX1, TEX0, 0, 0], [4, 0], { op: [0, 0, 2, 0, 0, 0], constant: [0, 128, 255, 255] })] },
  {
    id: 'P3',
    stages: [stage([TEX0, FRAG, 0, TEX0, 0, 0], [1, 0], { scale: [1, 0] }), stage([PREV, CONST, 0, PREV, 0, 0], [2, 0], { constant: [30, 30, 30, 255] })],
    frag: [100, 100, 200, 255],
  },
  {
    id: 'P4',
    stages: [stage([TEX0, 0, 0, TEX0, 0, 0], [0, 0]), stage([PREV, BUFFER, 0, PREV, 0, 0], [2, 0]), stage([PREV, BUFFER, 0, PREV, 0, 0], [5, 0])],
    bufferColor: [10, 20, 30, 255], bufferUpdate: 0x100,
  },
]

function picaProgram(v: PicaVector): PicaProgram {
  return {
    stages: v.stages, bufferColor: v.bufferColor ?? [0, 0, 0, 0], bufferUpdate: v.bufferUpdate ?? 0,
    textures: [P0, P1, null], uvTransforms: [[...I], [...I], [...I]],
    // FragPrimary = emission + ambient + diffuse·N·L: with ambient and diffuse 0 it is the emission, lit or not.
    lighting: { emission: v.frag ?? [0, 0, 0, 255], ambient: [0, 0, 0, 0], diffuse: [0, 0, 0, 0] },
  }
}

function quad(size: number, c: RGBA8, material: number): Primitive {
  const h = size / 2
  const col = c.map((x) => x / 255)
  return {
    positions: new Float32Array([-h, -h, 0, h, -h, 0, h, h, 0, -h, h, 0]),
    normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),
    uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]),
    colors: new Float32Array([...col, ...col, ...col, ...col]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    material,
  }
}

function material(name: string, o: Partial<Material>): Material {
  return { name, baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided: false, unlit: true, ...o }
}

/** The cells in card order (N1–N9, then P1–P4), row by row from the top left. */
export function materialCardCells(): CardCell[] {
  const ids = [...N64_VECTORS.map((v) => v.id), ...PICA_VECTORS.map((v) => v.id)]
  const rows = Math.ceil(ids.length / COLS)
  return ids.map((id, i) => ({ id, x: ((i % COLS) - (COLS - 1) / 2) * CARD_PITCH, y: ((rows - 1) / 2 - Math.floor(i / COLS)) * CARD_PITCH }))
}

export function materialCardScene(): Scene {
  const scene: Scene = {
    name: 'Material test card', nodes: [], meshes: [], materials: [], skins: [], animations: [], curves: [],
    // Head-on, far enough for the 5 × 3 cells in a landscape canvas (vertical field of view 0.8 rad).
    extras: { camera: { eye: [0, 0, 11], target: [0, 0, 0] } },
    textures: [flat('T0', [206, 123, 49, 255]), flat('T1', [41, 173, 231, 255]), flat('P-T0', [200, 100, 50, 255]), flat('P-T1', [0, 0, 0, 64]), centred()],
  }
  const cells = new Map(materialCardCells().map((c) => [c.id, c]))
  const add = (name: string, m: Material, prim: Primitive, at: [number, number, number]) => {
    scene.materials.push(m)
    scene.meshes.push({ name, primitives: [{ ...prim, material: scene.materials.length - 1 }] })
    const node: SceneNode = { name, parent: -1, translation: at, rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: scene.meshes.length - 1, extras: { vector: name } }
    scene.nodes.push(node)
  }
  for (const v of N64_VECTORS) {
    const c = cells.get(v.id)!
    if (v.mem) {
      const mem = n64Program({ combine: [0x121824, 0xff33ffff], cycles: 1, otherModeL: 0x0f0a2230 })
      add(`${v.id} mem`, material(`${v.id} mem`, { texture: T0, program: { kind: 'n64', n64: mem } }), quad(CARD_QUAD * 1.15, v.mem, 0), [c.x, c.y, -MEM_DEPTH])
    }
    const p = n64Program(v)
    const blend = v.otherModeL & 0x4000 // FORCE_BL: translucent (N7)
    const mask = (v.otherModeL & 3) === 1
    const q = quad(CARD_QUAD, v.shade, 0)
    if (v.texgen) q.uvs = new Float32Array([0, 0.2, 0.2, 0.2, 0.2, 0, 0, 0]) // the border texels: only texgen reaches the centre
    add(v.id, material(v.id, { texture: p.textures[0] ?? T0, alphaMode: blend ? 'BLEND' : mask ? 'MASK' : 'OPAQUE', program: { kind: 'n64', n64: p } }), q, [c.x, c.y, 0])
  }
  for (const v of PICA_VECTORS) {
    const c = cells.get(v.id)!
    add(v.id, material(v.id, { texture: P0, program: { kind: 'pica', pica: picaProgram(v) } }), quad(CARD_QUAD, v.vertex ?? [255, 255, 255, 255], 0), [c.x, c.y, 0])
  }
  return scene
}
