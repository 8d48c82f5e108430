/**
 * The F3DEX2 interpreter's state and what it produces (pokemon-snap.md §5, §6; pokemon-stadium.md
 * §8): the memory it reads, tile descriptors, TMEM loads, cached vertices, texture references,
 * draw-call snapshots and their render key. Types and small pure helpers only; the interpreter is
 * `f3dex2.ts`, the RDP texture commands and helpers `f3dex2-rdp.ts`.
 */
import type { TlutType } from './texture'

/** The game's address space as the RSP sees it (after segment resolution). */
export interface Memory {
  /** `len` bytes at `addr`, or throws a FormatError that names `what` and the address. */
  read(addr: number, len: number, what: string): Uint8Array
}

export interface TileState {
  fmt: number
  siz: number
  /** 64-bit words per row. */
  line: number
  /** TMEM address in 64-bit words. */
  tmem: number
  palette: number
  cmt: number
  maskt: number
  shiftt: number
  cms: number
  masks: number
  shifts: number
  /** 10.2 fixed point. */
  uls: number
  ult: number
  lrs: number
  lrt: number
}

export interface TextureImage {
  fmt: number
  siz: number
  width: number
  addr: number
}

/** What was loaded at a TMEM address. */
export interface TmemEntry {
  addr: number
  kind: 'block' | 'tile' | 'tlut'
  /** Row pitch in bytes of the DRAM source (tile loads). */
  pitch?: number
  /** The texture image's format at load time. */
  fmt: number
  siz: number
  /** LOADBLOCK dxt (0 = pre-swizzled data), LOADTLUT entry count. */
  dxt?: number
  count?: number
}

export interface TextureState {
  on: boolean
  tile: number
  level: number
  /** 0..1 (w1 halves / 65536). */
  sScale: number
  tScale: number
}

export interface CachedVertex {
  x: number
  y: number
  z: number
  /** S10.5 texture coordinates (raw s16). */
  s: number
  t: number
  /** Bytes 12..15: colour, or s8 normal + alpha under G_LIGHTING. */
  c0: number
  c1: number
  c2: number
  a: number
  /** Bone / node index current when the vertex was loaded (§6). */
  bone: number
  /** Unique id of the load event (G_VTX or G_MODIFYVTX) that produced this slot's content. */
  loadId: number
  /** Address the vertex was read from. */
  addr: number
}

/** A resolved texture reference of a draw call (decode with `decodeTextureRef`). */
export interface TextureRef {
  tileIndex: number
  tile: TileState
  fmt: number
  siz: number
  width: number
  height: number
  addr: number
  rowBytes: number
  /** Undo the odd-row swap (LOADBLOCK with dxt = 0). */
  deinterleave: boolean
  paletteAddr?: number
  paletteCount?: number
  tlut?: TlutType
}

/** The RDP's render modes and colours (othermodes, combiner, primitive/environment/blend/fog colours). */
export interface RdpModes {
  otherModeH: number
  otherModeL: number
  combineHi: number
  combineLo: number
  primColor: [number, number, number, number]
  primLodFrac: number
  primMinLevel: number
  envColor: [number, number, number, number]
  blendColor: [number, number, number, number]
  fogColor: [number, number, number, number]
}

/** A full state snapshot recorded on a draw call. */
export interface DrawState extends RdpModes {
  geometryMode: number
  texture: TextureState
  /** Light colours set through G_MW_LIGHTCOL (index 1..8), RGB 0..255. */
  lights: Record<number, [number, number, number]>
  /** Texture 0 and (if the combiner uses it) texture 1; null when textures are off or unresolved. */
  textures: (TextureRef | null)[]
  /** Caller-defined tag current at the draw (Snap: material index; Stadium: material DL). */
  tag: number | string | null
}

export interface DrawCall {
  state: DrawState
  vertices: CachedVertex[]
  /** Triangle list into `vertices`. */
  indices: number[]
  /** Bone that was current when the draw call started. */
  bone: number
  /** Address of the DL whose triangle opened this draw call. */
  dlAddr: number
}

/** The RDP state the texture commands change (`execRdp`, `textureRefFor`); `F3dex2` is one. */
export interface RdpState extends RdpModes {
  timg: TextureImage
  tiles: TileState[]
  /** TMEM word address → what was loaded there. */
  tmem: Map<number, TmemEntry>
  /** Resolves a segmented address (SETTIMG). */
  resolve(addr: number): number
  /** Marks render state as changed (the next triangle starts a new draw call if it differs). */
  touch(): void
}

export function newTile(): TileState {
  return { fmt: 0, siz: 0, line: 0, tmem: 0, palette: 0, cmt: 0, maskt: 0, shiftt: 0, cms: 0, masks: 0, shifts: 0, uls: 0, ult: 0, lrs: 0, lrt: 0 }
}

/** Address is a segmented one (not KSEG0/KSEG1/other direct virtual address). */
export function isSegmented(addr: number): boolean {
  return addr >>> 24 < 0x80 && addr >>> 24 !== 0
}

function refKey(r: TextureRef | null): string {
  if (!r) return '-'
  const t = r.tile
  return `${r.addr},${r.fmt},${r.siz},${r.width},${r.height},${r.rowBytes},${r.paletteAddr ?? ''},${t.cms},${t.cmt},${t.masks},${t.maskt},${t.shifts},${t.shiftt},${t.uls},${t.ult}`
}

/** A string that is equal for two snapshots exactly when they render the same way. */
export function stateKey(s: DrawState): string {
  return [
    s.geometryMode, s.otherModeH, s.otherModeL, s.combineHi, s.combineLo, s.primColor.join(','), s.primLodFrac,
    s.envColor.join(','), s.blendColor.join(','), s.texture.on ? `${s.texture.tile},${s.texture.level},${s.texture.sScale},${s.texture.tScale}` : 'off',
    JSON.stringify(s.lights), s.textures.map(refKey).join('|'), String(s.tag),
  ].join(';')
}

/** Decodes a Vtx's bytes 12..14 as a normal (lit draws): s8 → normalised vector. */
export function vertexNormal(v: Pick<CachedVertex, 'c0' | 'c1' | 'c2'>): [number, number, number] {
  const x = (v.c0 << 24) >> 24, y = (v.c1 << 24) >> 24, z = (v.c2 << 24) >> 24
  const l = Math.hypot(x, y, z)
  return l > 0 ? [x / l, y / l, z / l] : [0, 1, 0]
}
