/**
 * The part of a glTF 2.0 JSON that an animation importer reads, checked field by field
 * (glTF 2.0 specification §5: accessor, animation, animation.channel, animation.sampler, buffer,
 * bufferView, node), and copied into a fresh minimal document: meshes, materials, skins, images,
 * cameras, scenes and extensions are left out, so @gltf-transform/core never meets a field it
 * would trust blindly. Every problem is a FormatError naming the JSON structure, e.g.
 * `accessors[3].count`.
 *
 * Also checked: node children form a forest (one parent each, no cycle); sparse accessors have
 * valid index types and counts. Files needing EXT/KHR_meshopt_compression (it replaces bufferView
 * data) are refused.
 */
import type { GLTF } from '@gltf-transform/core'
import { FormatError } from '../binary/errors'

type Json = Record<string, unknown>
const COMPONENTS = [5120, 5121, 5122, 5123, 5125, 5126]
const TYPES = ['SCALAR', 'VEC2', 'VEC3', 'VEC4', 'MAT2', 'MAT3', 'MAT4']
const PATHS = ['translation', 'rotation', 'scale', 'weights']
const INTERPOLATIONS = ['LINEAR', 'STEP', 'CUBICSPLINE']

class Checker {
  constructor(readonly file?: string) {}
  fail(structure: string, detail: string): never {
    throw new FormatError(detail, { file: this.file, structure })
  }
  list(v: unknown, s: string): unknown[] {
    if (v === undefined) return []
    if (!Array.isArray(v)) this.fail(s, `is ${JSON.stringify(v)?.slice(0, 40)}, not an array`)
    return v
  }
  obj(v: unknown, s: string): Json {
    if (!v || typeof v !== 'object' || Array.isArray(v)) this.fail(s, 'is not an object')
    return v as Json
  }
  int(v: unknown, s: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) this.fail(s, `is ${JSON.stringify(v)?.slice(0, 40)}, not a whole number from ${min} to ${max}`)
    return v
  }
  optInt(v: unknown, s: string, min: number, max?: number): number | undefined {
    return v === undefined ? undefined : this.int(v, s, min, max)
  }
  oneOf<T extends string | number>(v: unknown, s: string, allowed: readonly T[]): T {
    if (!allowed.includes(v as T)) this.fail(s, `is ${JSON.stringify(v)?.slice(0, 40)}, not one of ${allowed.join(', ')}`)
    return v as T
  }
  numbers(v: unknown, s: string, n: number): number[] | undefined {
    if (v === undefined) return undefined
    if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) this.fail(s, `is not ${n} finite numbers`)
    return v as number[]
  }
  name(v: unknown, s: string): string | undefined {
    if (v === undefined) return undefined
    if (typeof v !== 'string') this.fail(s, 'is not a string')
    return v
  }
}

function buffers(c: Checker, json: Json): GLTF.IBuffer[] {
  return c.list(json.buffers, 'buffers').map((x, i) => {
    const b = c.obj(x, `buffers[${i}]`)
    const uri = c.name(b.uri, `buffers[${i}].uri`)
    // A missing byteLength (writers omit it for an empty buffer) counts as 0: no view can use it.
    return { byteLength: b.byteLength === undefined ? 0 : c.int(b.byteLength, `buffers[${i}].byteLength`, 0), ...(uri !== undefined ? { uri } : {}) }
  })
}

function bufferViews(c: Checker, json: Json, nBuffers: number): GLTF.IBufferView[] {
  return c.list(json.bufferViews, 'bufferViews').map((x, i) => {
    const s = `bufferViews[${i}]`
    const v = c.obj(x, s)
    const ext = v.extensions as Json | undefined
    if (ext && (ext.EXT_meshopt_compression || ext.KHR_meshopt_compression)) c.fail(s, 'uses meshopt compression, which this reader does not decode')
    const byteStride = c.optInt(v.byteStride, `${s}.byteStride`, 4, 252)
    return {
      buffer: c.int(v.buffer, `${s}.buffer`, 0, nBuffers - 1),
      byteOffset: c.optInt(v.byteOffset, `${s}.byteOffset`, 0) ?? 0,
      byteLength: c.int(v.byteLength, `${s}.byteLength`, 1),
      ...(byteStride !== undefined ? { byteStride } : {}),
    }
  })
}

function accessors(c: Checker, json: Json, nViews: number): GLTF.IAccessor[] {
  return c.list(json.accessors, 'accessors').map((x, i) => {
    const s = `accessors[${i}]`
    const a = c.obj(x, s)
    const out: GLTF.IAccessor = {
      componentType: c.oneOf(a.componentType, `${s}.componentType`, COMPONENTS) as GLTF.AccessorComponentType,
      count: c.int(a.count, `${s}.count`, 1),
      type: c.oneOf(a.type, `${s}.type`, TYPES) as GLTF.AccessorType,
      byteOffset: c.optInt(a.byteOffset, `${s}.byteOffset`, 0) ?? 0,
    }
    if (a.bufferView !== undefined) out.bufferView = c.int(a.bufferView, `${s}.bufferView`, 0, nViews - 1)
    if (a.normalized !== undefined) {
      if (typeof a.normalized !== 'boolean') c.fail(`${s}.normalized`, 'is not true or false')
      out.normalized = a.normalized
    }
    if (a.sparse !== undefined) out.sparse = sparse(c, a.sparse, `${s}.sparse`, out.count, nViews)
    return out
  })
}

function sparse(c: Checker, v: unknown, s: string, count: number, nViews: number): GLTF.IAccessorSparse {
  const sp = c.obj(v, s)
  const idx = c.obj(sp.indices, `${s}.indices`)
  const val = c.obj(sp.values, `${s}.values`)
  return {
    count: c.int(sp.count, `${s}.count`, 1, count),
    indices: {
      bufferView: c.int(idx.bufferView, `${s}.indices.bufferView`, 0, nViews - 1),
      byteOffset: c.optInt(idx.byteOffset, `${s}.indices.byteOffset`, 0) ?? 0,
      componentType: c.oneOf(idx.componentType, `${s}.indices.componentType`, [5121, 5123, 5125]) as GLTF.AccessorComponentType,
    },
    values: { bufferView: c.int(val.bufferView, `${s}.values.bufferView`, 0, nViews - 1), byteOffset: c.optInt(val.byteOffset, `${s}.values.byteOffset`, 0) ?? 0 },
  }
}

function nodes(c: Checker, json: Json): GLTF.INode[] {
  const list = c.list(json.nodes, 'nodes')
  const parent = new Array<number>(list.length).fill(-1)
  const out = list.map((x, i): GLTF.INode => {
    const s = `nodes[${i}]`
    const n = c.obj(x, s)
    const node: GLTF.INode = { name: c.name(n.name, `${s}.name`) ?? '' }
    const children = c.list(n.children, `${s}.children`).map((ch, k) => c.int(ch, `${s}.children[${k}]`, 0, list.length - 1))
    for (const ch of children) {
      if (ch === i || parent[ch]! >= 0) c.fail(`${s}.children`, `node ${ch} is ${ch === i ? 'its own child' : `already a child of node ${parent[ch]}`}`)
      parent[ch] = i
    }
    if (children.length) node.children = children
    const t = c.numbers(n.translation, `${s}.translation`, 3)
    const r = c.numbers(n.rotation, `${s}.rotation`, 4)
    const sc = c.numbers(n.scale, `${s}.scale`, 3)
    const m = c.numbers(n.matrix, `${s}.matrix`, 16)
    if (t) node.translation = t as GLTF.INode['translation']
    if (r) node.rotation = r as GLTF.INode['rotation']
    if (sc) node.scale = sc as GLTF.INode['scale']
    if (m) node.matrix = m as GLTF.INode['matrix']
    return node
  })
  // With one parent each, a parent chain longer than the node count is a cycle.
  parent.forEach((_, i) => {
    let p = parent[i]!
    for (let steps = 0; p >= 0; steps++, p = parent[p]!) if (steps > list.length) c.fail(`nodes[${i}]`, 'its parent chain is a cycle')
  })
  return out
}

function animations(c: Checker, json: Json, nNodes: number, nAccessors: number): GLTF.IAnimation[] {
  return c.list(json.animations, 'animations').map((x, ai) => {
    const s = `animations[${ai}]`
    const a = c.obj(x, s)
    const samplers = c.list(a.samplers, `${s}.samplers`).map((y, si): GLTF.IAnimationSampler => {
      const ss = `${s}.samplers[${si}]`
      const sm = c.obj(y, ss)
      return {
        input: c.int(sm.input, `${ss}.input`, 0, nAccessors - 1),
        output: c.int(sm.output, `${ss}.output`, 0, nAccessors - 1),
        interpolation: (sm.interpolation === undefined ? 'LINEAR' : c.oneOf(sm.interpolation, `${ss}.interpolation`, INTERPOLATIONS)) as GLTF.AnimationSamplerInterpolation,
      }
    })
    const channels = c.list(a.channels, `${s}.channels`).map((y, ci): GLTF.IAnimationChannel => {
      const cs = `${s}.channels[${ci}]`
      const ch = c.obj(y, cs)
      const target = c.obj(ch.target, `${cs}.target`)
      if (target.node === undefined) c.fail(`${cs}.target.node`, 'is missing (only node targets are read)')
      return {
        sampler: c.int(ch.sampler, `${cs}.sampler`, 0, samplers.length - 1),
        target: { node: c.int(target.node, `${cs}.target.node`, 0, nNodes - 1), path: c.oneOf(target.path, `${cs}.target.path`, PATHS) as GLTF.AnimationChannelTargetPath },
      }
    })
    const extras = a.extras && typeof a.extras === 'object' && !Array.isArray(a.extras) ? (a.extras as Record<string, unknown>) : undefined
    return { name: c.name(a.name, `${s}.name`) ?? '', samplers, channels, ...(extras ? { extras } : {}) }
  })
}

/** The checked minimal copy of `json` (see the file head). */
export function minimalGltf(json: GLTF.IGLTF, file?: string): GLTF.IGLTF {
  const c = new Checker(file)
  const j = json as unknown as Json
  const b = buffers(c, j)
  const views = bufferViews(c, j, b.length)
  const acc = accessors(c, j, views.length)
  const n = nodes(c, j)
  return { asset: { version: '2.0' }, buffers: b, bufferViews: views, accessors: acc, nodes: n, animations: animations(c, j, n.length, acc.length) }
}
