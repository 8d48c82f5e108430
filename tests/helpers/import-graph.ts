/**
 * The import graph of the source folders, for the layering tests: every static import, `export …
 * from`, side-effect import and dynamic `import('…')` (type-only imports too: an edge is an edge),
 * resolved to the file it names (relative paths and the renderer's `@shared/` alias; packages and
 * Node built-ins are not nodes). `cycles` finds every import circle, `upArrows` every import that a
 * layer table does not allow.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'

/** File (root-relative, `/`-separated) → the files it imports, in source order, each once. */
export type ImportGraph = Map<string, string[]>

const SOURCE = /\.(ts|mts|mjs|vue)$/

/** Module specifiers of a source text, comments left out (a commented-out import is no edge). */
export function specifiers(src: string): string[] {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
  const out: string[] = []
  for (const m of code.matchAll(/(?:^|[\n;])\s*(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) out.push(m[1]!)
  for (const m of code.matchAll(/(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]!)
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!)
  return out
}

/** The graph of every source file under `dirs` (root-relative folders). */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files: string[] = []
  for (const d of dirs) {
    const abs = path.join(root, d)
    if (!fs.existsSync(abs)) continue
    for (const f of fs.readdirSync(abs, { recursive: true }) as string[]) if (SOURCE.test(f) && !f.endsWith('.d.ts')) files.push(path.posix.join(d, f.split(path.sep).join('/')))
  }
  const known = new Set(files)
  const resolve = (from: string, spec: string): string | null => {
    let base: string
    if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec))
    else if (spec.startsWith('@shared/')) base = `src-shared/${spec.slice('@shared/'.length)}`
    else return null
    const stem = base.replace(/\.(js|mjs)$/, '')
    for (const c of [base, `${base}.ts`, `${base}.vue`, `${base}.mts`, `${stem}.ts`, `${base}/index.ts`]) if (known.has(c)) return c
    return null
  }
  const graph: ImportGraph = new Map()
  for (const f of files) {
    const targets = specifiers(fs.readFileSync(path.join(root, f), 'utf8')).map((s) => resolve(f, s)).filter((t): t is string => t !== null)
    graph.set(f, [...new Set(targets)])
  }
  return graph
}

/**
 * Every import circle: the strongly connected components of more than one file, and files that
 * import themselves (Tarjan's algorithm, iterative so a deep chain cannot overflow the stack).
 * Each circle is sorted; the list is sorted by its first file.
 */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const out: string[][] = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: { v: string; i: number }[] = [{ v: start, i: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const top = work[work.length - 1]!
      const edges = graph.get(top.v) ?? []
      if (top.i < edges.length) {
        const w = edges[top.i++]!
        if (!index.has(w)) {
          index.set(w, next)
          low.set(w, next++)
          stack.push(w)
          onStack.add(w)
          work.push({ v: w, i: 0 })
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!))
        continue
      }
      work.pop()
      if (work.length) {
        const parent = work[work.length - 1]!.v
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!))
      }
      if (low.get(top.v) === index.get(top.v)) {
        const scc: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          scc.push(w)
        } while (w !== top.v)
        if (scc.length > 1 || (graph.get(top.v) ?? []).includes(top.v)) out.push(scc.sort())
      }
    }
  }
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/** A layer: the files it holds and the layers it may import (besides itself). */
export interface Layer {
  name: string
  holds(file: string): boolean
  may: readonly string[]
}

/**
 * Imports a layer table does not allow: `a (layer) imports b (layer)` for every edge from one
 * layer to another that the importer's `may` does not list, and `a: in no layer` for a file of
 * the graph that no layer holds (`scope` limits the check to some files; the first layer that
 * holds a file is its layer).
 */
export function upArrows(graph: ImportGraph, layers: readonly Layer[], scope: (file: string) => boolean = () => true): string[] {
  const layerOf = (f: string) => layers.find((l) => l.holds(f))
  const bad: string[] = []
  for (const [from, targets] of graph) {
    if (!scope(from)) continue
    const a = layerOf(from)
    if (!a) {
      bad.push(`${from}: in no layer`)
      continue
    }
    for (const to of targets) {
      if (!scope(to)) continue
      const b = layerOf(to)
      if (b && (b === a || a.may.includes(b.name))) continue
      bad.push(`${from} (${a.name}) imports ${to} (${b?.name ?? 'no layer'})`)
    }
  }
  return bad
}

/**
 * The layers of src-main, top first; each may import the layers it lists (and itself, and
 * src-shared). Domains sit beside the generic layers, not above them: a game folder sees the
 * plugin contracts and the Node helpers only, and generic code reaches the games through the
 * registry the list fills, never through the list or a game folder.
 */
const under = (dir: string) => (f: string) => f.startsWith(dir)
const ENTRY_FILES = ['src-main/index.ts', 'src-main/preload.ts', 'src-main/cli/main.ts']
export const MAIN_LAYERS: Layer[] = [
  { name: 'entry', holds: (f) => ENTRY_FILES.includes(f) || f.startsWith('src-main/launch/'), may: ['list', 'cli', 'transport', 'services', 'indexer', 'catalog', 'plugin', 'node'] },
  { name: 'list', holds: (f) => f === 'src-main/domains/index.ts', may: ['domains', 'plugin'] },
  { name: 'cli', holds: under('src-main/cli/'), may: ['transport', 'services', 'indexer', 'catalog', 'plugin', 'node'] },
  { name: 'transport', holds: under('src-main/transport/'), may: ['services', 'indexer', 'catalog', 'plugin', 'node'] },
  { name: 'services', holds: under('src-main/services/'), may: ['indexer', 'catalog', 'plugin', 'node'] },
  { name: 'indexer', holds: under('src-main/indexer/'), may: ['catalog', 'plugin', 'node'] },
  { name: 'catalog', holds: under('src-main/catalog/'), may: ['plugin', 'node'] },
  { name: 'domains', holds: under('src-main/domains/'), may: ['plugin', 'node'] },
  { name: 'plugin', holds: under('src-main/plugin/'), may: ['node'] },
  { name: 'node', holds: under('src-main/node/'), may: [] },
]

/**
 * The layers of src-shared, top first: the API contract may read the formats and the list; the
 * list (domains.ts) reads the game manifests; a format never imports the list or the API (it is
 * read by them); export, materials, scene and binary sit below the formats in that order.
 */
const SHARED_UTIL = ['src-shared/json-stream.ts', 'src-shared/output-path.ts', 'src-shared/app-menu.ts']
export const SHARED_LAYERS: Layer[] = [
  { name: 'api', holds: (f) => f === 'src-shared/api.ts' || under('src-shared/api/')(f) || under('src-shared/transport/')(f), may: ['list', 'formats', 'export', 'materials', 'scene', 'contract', 'util', 'binary'] },
  { name: 'list', holds: (f) => f === 'src-shared/domains.ts', may: ['formats', 'contract'] },
  { name: 'formats', holds: under('src-shared/formats/'), may: ['export', 'materials', 'scene', 'contract', 'util', 'binary'] },
  { name: 'export', holds: under('src-shared/export/'), may: ['materials', 'scene', 'util', 'binary'] },
  { name: 'materials', holds: under('src-shared/materials/'), may: ['scene', 'binary'] },
  { name: 'scene', holds: under('src-shared/scene/'), may: ['binary'] },
  { name: 'contract', holds: (f) => f === 'src-shared/domain.ts', may: [] },
  { name: 'util', holds: (f) => SHARED_UTIL.includes(f), may: ['binary'] },
  { name: 'binary', holds: under('src-shared/binary/'), may: [] },
]
