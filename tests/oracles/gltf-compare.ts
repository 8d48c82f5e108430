/**
 * Are two glTF documents (read back with glTF-Transform) the same document? For the differential
 * test of the glb writer against its oracle (`gltf-document.ts`).
 *
 * Two judges, both required:
 * - glTF-Transform's own `Property.equals()` on each listed property. It compares every attribute
 *   and follows references recursively, accessor arrays element by element — but it compares the
 *   arrays inside extras by element identity (`equalsArray` uses `!==`), so identical extras that
 *   hold arrays of objects (curves, texture swaps) would differ. `canonicalExtras` therefore first
 *   replaces every property's extras by one canonical JSON string (keys sorted), in both documents.
 * - `firstDifference`, a walker over the same attributes (glTF-Transform's attribute table, the
 *   one `equals` reads) that names the first differing path, e.g.
 *   `meshes[2].primitives[0].attributes.NORMAL[17]: 0.5 vs 0.25`, so that a failure is readable.
 *   It is stricter in one way: a reference to a listed property (node, mesh, material, skin,
 *   texture, animation, scene) must point at the same index in both lists (each listed property
 *   is compared on its own), which also keeps it finite where references form a cycle.
 */
import { Document, GraphEdge, RefList, RefMap, RefSet, type Property } from '@gltf-transform/core'

type Attrs = Record<string, unknown>

/** glTF-Transform's attribute table of a property (`$attributes` of property-graph, what `equals` iterates). */
const ATTRIBUTES: symbol = (() => {
  const s = Object.getOwnPropertySymbols(new Document().createNode()).find((x) => x.description === 'attributes')
  if (!s) throw new Error('glTF-Transform has no attribute table any more: update tests/oracles/gltf-compare.ts')
  return s
})()
const attrsOf = (p: Property): Attrs => (p as unknown as Record<symbol, Attrs>)[ATTRIBUTES]

/** The root lists compared index by index, under their glTF names. */
export const LISTS = {
  meshes: (d: Document) => d.getRoot().listMeshes(),
  nodes: (d: Document) => d.getRoot().listNodes(),
  materials: (d: Document) => d.getRoot().listMaterials(),
  skins: (d: Document) => d.getRoot().listSkins(),
  animations: (d: Document) => d.getRoot().listAnimations(),
  textures: (d: Document) => d.getRoot().listTextures(),
  scenes: (d: Document) => d.getRoot().listScenes(),
} as const
export type ListName = keyof typeof LISTS

/** Where each listed property sits in its document: "nodes[3]". */
function indexTable(d: Document): Map<Property, string> {
  const m = new Map<Property, string>()
  for (const [name, list] of Object.entries(LISTS)) list(d).forEach((p, i) => m.set(p, `${name}[${i}]`))
  return m
}

const show = (v: unknown): string => {
  if (v === undefined) return 'missing'
  const s = ArrayBuffer.isView(v) ? `${v.constructor.name}(${(v as unknown as ArrayLike<number>).length})` : JSON.stringify(v)
  return s.length > 80 ? `${s.slice(0, 77)}...` : s
}
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v)
const isList = (v: unknown): v is ArrayLike<unknown> => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))

/** First difference between two JSON-like values (extras, arrays, numbers), or null. */
export function valueDifference(a: unknown, b: unknown, path: string): string | null {
  if (a === b) return null
  if (isList(a) && isList(b)) {
    if (a.constructor !== b.constructor) return `${path}: ${a.constructor.name} vs ${b.constructor.name}`
    if (a.length !== b.length) return `${path}: length ${a.length} vs ${b.length}`
    for (let i = 0; i < a.length; i++) {
      const d = valueDifference(a[i], b[i], `${path}[${i}]`)
      if (d) return d
    }
    return null
  }
  if (isPlain(a) && isPlain(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = valueDifference(a[k], b[k], `${path}.${k}`)
      if (d) return d
    }
    return null
  }
  return `${path}: ${show(a)} vs ${show(b)}`
}

interface Walk {
  idxA: Map<Property, string>
  idxB: Map<Property, string>
  stack: Set<Property>
}

function refDifference(a: Property | null, b: Property | null, path: string, w: Walk): string | null {
  if (!a || !b) return a === b ? null : `${path}: ${a ? 'set' : 'missing'} vs ${b ? 'set' : 'missing'}`
  const ia = w.idxA.get(a)
  const ib = w.idxB.get(b)
  if (ia !== undefined || ib !== undefined) return ia === ib ? null : `${path}: ${ia ?? a.propertyType} vs ${ib ?? b.propertyType}`
  return propertyWalk(a, b, path, w)
}

function propertyWalk(a: Property, b: Property, path: string, w: Walk): string | null {
  if (a.propertyType !== b.propertyType) return `${path}: ${a.propertyType} vs ${b.propertyType}`
  if (w.stack.has(a)) return null // a cycle through unlisted properties: judged where it started
  w.stack.add(a)
  try {
    const A = attrsOf(a)
    const B = attrsOf(b)
    for (const key of new Set([...Object.keys(A), ...Object.keys(B)])) {
      const x = A[key]
      const y = B[key]
      // An accessor's array is the accessor's value: `attributes.NORMAL[17]`, not `.array[17]`.
      const at = a.propertyType === 'Accessor' && key === 'array' ? path : `${path}.${key}`
      const d = attributeDifference(x, y, at, w)
      if (d) return d
    }
    return null
  } finally {
    w.stack.delete(a)
  }
}

function attributeDifference(x: unknown, y: unknown, at: string, w: Walk): string | null {
  if (x instanceof GraphEdge || y instanceof GraphEdge) {
    const ex = x as GraphEdge<Property, Property> | null
    const ey = y as GraphEdge<Property, Property> | null
    return refDifference(ex?.getChild() ?? null, ey?.getChild() ?? null, at, w)
  }
  if (x instanceof RefMap || y instanceof RefMap) {
    const mx = x as RefMap<Property>
    const my = y as RefMap<Property>
    for (const k of new Set([...mx.keys(), ...my.keys()])) {
      const d = refDifference(mx.get(k)?.getChild() ?? null, my.get(k)?.getChild() ?? null, `${at}.${k}`, w)
      if (d) return d
    }
    return null
  }
  if (x instanceof RefList || x instanceof RefSet || y instanceof RefList || y instanceof RefSet) {
    const lx = (x as RefList<Property>).values()
    const ly = (y as RefList<Property>).values()
    if (lx.length !== ly.length) return `${at}: ${lx.length} vs ${ly.length} entries`
    for (let i = 0; i < lx.length; i++) {
      const d = refDifference(lx[i]!.getChild(), ly[i]!.getChild(), `${at}[${i}]`, w)
      if (d) return d
    }
    return null
  }
  return valueDifference(x, y, at)
}

/** The first path at which listed property `name[i]` of document A differs from B's, or null. */
export function firstDifference(a: Document, b: Document, name: ListName, i: number): string | null {
  const la = LISTS[name](a)
  const lb = LISTS[name](b)
  if (la.length !== lb.length) return `${name}: ${la.length} vs ${lb.length}`
  return propertyWalk(la[i]!, lb[i]!, `${name}[${i}]`, { idxA: indexTable(a), idxB: indexTable(b), stack: new Set() })
}

/** Canonical JSON (object keys sorted), so that equal extras are equal strings. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
  if (isPlain(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`
  return JSON.stringify(v) ?? 'null'
}

/** Every property reachable from the root (nodes, primitives, texture infos, extension properties…). */
export function allProperties(d: Document): Property[] {
  const seen = new Set<Property>()
  const visit = (p: Property) => {
    if (seen.has(p)) return
    seen.add(p)
    for (const v of Object.values(attrsOf(p))) {
      if (v instanceof GraphEdge) visit(v.getChild() as Property)
      else if (v instanceof RefList || v instanceof RefSet || v instanceof RefMap) for (const e of v.values()) visit(e.getChild() as Property)
    }
  }
  visit(d.getRoot())
  return [...seen]
}

/** Replaces every property's extras by `{ json: canonical JSON }` (or {} when empty), so `equals` can compare them. */
export function canonicalExtras(d: Document): void {
  for (const p of allProperties(d)) {
    const e = p.getExtras()
    p.setExtras(Object.keys(e).length ? { json: canonicalJson(e) } : {})
  }
}

/** The JSON chunk of a glb (§4.4: it starts at byte 20, its length at byte 12). */
function glbJson(glb: Uint8Array): { asset?: unknown; extensionsUsed?: string[]; extensionsRequired?: string[] } {
  const jl = new DataView(glb.buffer, glb.byteOffset, glb.byteLength).getUint32(12, true)
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jl)))
}

/** Per animation, for each sampler the first sampler with the same input accessor (which key-time arrays are shared). */
function inputSharing(d: Document): number[][] {
  return d.getRoot().listAnimations().map((a) => {
    const inputs = a.listSamplers().map((s) => s.getInput())
    return inputs.map((x) => inputs.indexOf(x))
  })
}

const sortedJson = (v: string[] | undefined) => JSON.stringify([...(v ?? [])].sort())

/**
 * How two documents differ, as readable lines; [] when they are the same document. `a` and `b`
 * are read from `bytesA` and `bytesB` by the caller (with the extensions registered); they are
 * changed (extras canonicalised) on the way.
 */
export function documentDifferences(a: Document, b: Document, bytesA: Uint8Array, bytesB: Uint8Array): string[] {
  const out: string[] = []
  const ja = glbJson(bytesA)
  const jb = glbJson(bytesB)
  // glTF-Transform's reader keeps no asset.generator: the JSON chunk's asset is compared as it is.
  const asset = valueDifference(ja.asset, jb.asset, 'asset')
  if (asset) out.push(asset)
  const rootExtras = valueDifference(a.getRoot().getExtras(), b.getRoot().getExtras(), 'extras')
  if (rootExtras) out.push(rootExtras)
  for (const k of ['extensionsUsed', 'extensionsRequired'] as const) if (sortedJson(ja[k]) !== sortedJson(jb[k])) out.push(`${k}: ${sortedJson(ja[k])} vs ${sortedJson(jb[k])}`)
  const accessors = [a, b].map((d) => d.getRoot().listAccessors().length)
  if (accessors[0] !== accessors[1]) out.push(`accessors: ${accessors[0]} vs ${accessors[1]}`)
  const sharing = [a, b].map((d) => JSON.stringify(inputSharing(d)))
  if (sharing[0] !== sharing[1]) out.push(`animation inputs shared (per sampler, the first sampler with its input): ${sharing[0]} vs ${sharing[1]}`)
  const names = Object.keys(LISTS) as ListName[]
  const walked: string[] = []
  for (const name of names) {
    const n = Math.max(LISTS[name](a).length, LISTS[name](b).length)
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a, b, name, i)
      if (d) walked.push(d)
      if (d?.startsWith(`${name}: `)) break // the list lengths differ
    }
  }
  // glTF-Transform's own verdict, once extras are canonical strings.
  canonicalExtras(a)
  canonicalExtras(b)
  const judged: string[] = []
  for (const name of names) {
    const la = LISTS[name](a)
    const lb = LISTS[name](b)
    for (let i = 0; i < Math.min(la.length, lb.length); i++) if (!(la[i] as Property).equals(lb[i] as Property)) judged.push(`${name}[${i}]`)
  }
  if (walked.length) out.push(...walked)
  else if (judged.length) out.push(`Property.equals says ${judged.join(', ')} differ; the path walker found no difference`)
  return out
}
