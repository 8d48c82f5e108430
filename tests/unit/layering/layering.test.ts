import { describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { MAIN_LAYERS, SHARED_LAYERS, cycles, importGraph, upArrows } from '../../helpers/import-graph'

/**
 * Keeps the layering of DESIGN.md: shared code imports no Node, Electron or DOM API; the renderer
 * never imports main-process code; the viewport imports no format code; only the Electron shell
 * imports electron; no import circle anywhere; inside src-main every import goes down the layer
 * table below (docs/DECISIONS.md, "The plugin contracts and the layer order of src-main").
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..')

function files(dir: string, exts = /\.(ts|vue)$/): string[] {
  const abs = path.join(root, dir)
  if (!fs.existsSync(abs)) return []
  return (fs.readdirSync(abs, { recursive: true }) as string[]).filter((f) => exts.test(f)).map((f) => path.join(abs, f))
}

/** Module specifiers of import/export-from/dynamic import statements. */
function imports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) out.push(m[1]!)
  for (const m of src.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]!)
  for (const m of src.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!)
  return out
}

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1').replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
}

const rel = (f: string) => path.relative(root, f)

describe('layering', () => {
  it('src-shared imports no Node, Electron or DOM API', () => {
    const bad: string[] = []
    const nodeBuiltins = /^(node:|fs$|path$|os$|crypto$|child_process$|worker_threads$|electron$|better-sqlite3$|pngjs$)/
    for (const f of files('src-shared')) {
      for (const i of imports(f)) if (nodeBuiltins.test(i)) bad.push(`${rel(f)} imports ${i}`)
      const code = stripComments(fs.readFileSync(f, 'utf8'))
      for (const g of ['window', 'document', 'localStorage', 'Buffer', 'process', 'require', '__dirname']) {
        if (new RegExp(`(?<![.\\w$])${g}\\s*[.([]`).test(code)) bad.push(`${rel(f)} uses ${g}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('the renderer never imports main-process code, and the viewport no format code', () => {
    const bad: string[] = []
    for (const f of files('src-renderer')) {
      for (const i of imports(f)) {
        const target = i.startsWith('.') ? path.resolve(path.dirname(f), i) : i
        if (typeof target === 'string' && (target.includes(`${path.sep}src-main`) || /^(node:|electron$|better-sqlite3$)/.test(i))) bad.push(`${rel(f)} imports ${i}`)
      }
    }
    for (const f of files('src-renderer/viewport')) {
      for (const i of imports(f)) if (/formats\//.test(i)) bad.push(`${rel(f)} (viewport) imports ${i}`)
    }
    expect(bad).toEqual([])
  })

  it('the renderer reaches shared code only as @shared/…, never by a relative path', () => {
    const bad: string[] = []
    for (const f of files('src-renderer')) {
      for (const i of imports(f)) {
        if (i.startsWith('.') && !path.resolve(path.dirname(f), i).startsWith(path.join(root, 'src-renderer'))) bad.push(`${rel(f)} imports ${i}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('shared code never imports main or renderer code', () => {
    const bad: string[] = []
    for (const f of files('src-shared')) {
      for (const i of imports(f)) {
        if (!i.startsWith('.')) continue
        const t = path.resolve(path.dirname(f), i)
        if (!t.startsWith(path.join(root, 'src-shared'))) bad.push(`${rel(f)} imports ${i}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('only the Electron shell imports electron', () => {
    const allowed = new Set(['src-main/index.ts', 'src-main/preload.ts', 'src-main/transport/ipc.ts', 'src-main/transport/shell-guards.ts', 'src-main/transport/shell-ipc.ts'])
    const bad = files('src-main')
      .filter((f) => imports(f).includes('electron') && !allowed.has(rel(f)))
      .map(rel)
    expect(bad).toEqual([])
  })

  it('has no import circle in src-main, src-shared or src-renderer (static, type-only and dynamic imports)', () => {
    const graph = importGraph(root, ['src-main', 'src-shared', 'src-renderer'])
    expect(graph.size).toBeGreaterThan(300)
    expect(cycles(graph)).toEqual([])
  })

  it('src-main imports only down its layer table', () => {
    const graph = importGraph(root, ['src-main', 'src-shared'])
    const inMain = (f: string) => f.startsWith('src-main/')
    expect([...graph.keys()].filter(inMain).length).toBeGreaterThan(100)
    expect(upArrows(graph, MAIN_LAYERS, inMain)).toEqual([])
  })

  it('src-shared imports only down its layer table (a format never imports the list or the API)', () => {
    const graph = importGraph(root, ['src-shared'])
    expect(graph.size).toBeGreaterThan(150)
    expect(upArrows(graph, SHARED_LAYERS)).toEqual([])
  })
})

