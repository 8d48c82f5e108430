/**
 * The layering checker itself (tests/helpers/import-graph.ts) on tiny synthetic graphs: it must
 * fail on a circle and on an arrow back up, or the layering test proves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { MAIN_LAYERS, cycles, importGraph, specifiers, upArrows, type ImportGraph, type Layer } from '../../helpers/import-graph'

const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges))

describe('cycles', () => {
  it('finds a three-file circle and nothing of the file that only points into it', () => {
    const g = graph({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'], 'e.ts': [] })
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })

  it('finds two separate circles, a self-import, and none in a diamond', () => {
    const g = graph({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'], 'x.ts': ['y.ts'], 'y.ts': ['x.ts'], 's.ts': ['s.ts'] })
    expect(cycles(g)).toEqual([['a.ts', 'b.ts'], ['s.ts'], ['x.ts', 'y.ts']])
    expect(cycles(graph({ 't.ts': ['l.ts', 'r.ts'], 'l.ts': ['b.ts'], 'r.ts': ['b.ts'], 'b.ts': [] }))).toEqual([])
  })
})

describe('upArrows', () => {
  const layers: Layer[] = [
    { name: 'high', holds: (f) => f.startsWith('high/'), may: ['low'] },
    { name: 'low', holds: (f) => f.startsWith('low/'), may: [] },
  ]

  it('allows down and sideways within a layer, reports up and files of no layer', () => {
    const g = graph({ 'high/a.ts': ['low/b.ts', 'high/c.ts'], 'high/c.ts': [], 'low/b.ts': ['high/a.ts', 'low/d.ts'], 'low/d.ts': [], 'stray.ts': ['low/d.ts'] })
    expect(upArrows(g, layers)).toEqual(['low/b.ts (low) imports high/a.ts (high)', 'stray.ts: in no layer'])
    expect(upArrows(g, layers, (f) => f !== 'stray.ts')).toEqual(['low/b.ts (low) imports high/a.ts (high)'])
  })

  it("flags, under src-main's table, generic code that imports the domain list or a game folder, and a domain that imports the services", () => {
    const g = graph({
      'src-main/services/scene-builders.ts': ['src-main/domains/index.ts', 'src-main/plugin/registry.ts'],
      'src-main/indexer/registry.ts': ['src-main/domains/n64/detector.ts'],
      'src-main/domains/n64/detector.ts': ['src-main/plugin/registry.ts', 'src-main/services/context.ts'],
      'src-main/services/context.ts': [],
      'src-main/plugin/registry.ts': ['src-main/node/atomic.ts'],
      'src-main/node/atomic.ts': [],
      'src-main/domains/index.ts': ['src-main/domains/n64/detector.ts', 'src-main/plugin/registry.ts'],
      'src-main/cli/main.ts': ['src-main/domains/index.ts'],
    })
    expect(upArrows(g, MAIN_LAYERS)).toEqual([
      'src-main/services/scene-builders.ts (services) imports src-main/domains/index.ts (list)',
      'src-main/indexer/registry.ts (indexer) imports src-main/domains/n64/detector.ts (domains)',
      'src-main/domains/n64/detector.ts (domains) imports src-main/services/context.ts (services)',
    ])
  })
})

describe('importGraph', () => {
  let dir: string
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-graph-'))
    const write = (f: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true })
      fs.writeFileSync(path.join(dir, f), text)
    }
    // a circle closed only by a dynamic import, one closed by a type-only import and an `export … from`
    write('src/a.ts', "import { b } from './b'\nexport const a = () => b\n")
    write('src/b.ts', "export const b = 1\nexport async function late() {\n  return (await import('./a')).a\n}\n")
    write('src/t/one.ts', "import type { Two } from './two'\nexport interface One { two?: Two }\n")
    write('src/t/two.ts', "export * from './index'\nexport interface Two { n: number }\n")
    write('src/t/index.ts', "export { type One } from './one'\n")
    // neither a comment nor a package is an edge
    write('src/c.ts', "// import { a } from './a'\n/* import('./b') */\nimport * as fs from 'node:fs'\nexport const c = fs\n")
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('resolves static, type-only, re-export and dynamic imports, and skips comments and packages', () => {
    const g = importGraph(dir, ['src'])
    expect(g.get('src/b.ts')).toEqual(['src/a.ts'])
    expect(g.get('src/t/two.ts')).toEqual(['src/t/index.ts'])
    expect(g.get('src/c.ts')).toEqual([])
    expect(cycles(g)).toEqual([['src/a.ts', 'src/b.ts'], ['src/t/index.ts', 'src/t/one.ts', 'src/t/two.ts']])
  })

  it('reads every form of specifier', () => {
    const src = "import x from './x'\nimport './side'\nexport { y } from './y'\nimport type { Z } from '@shared/z'\nconst w = await import('./w')\n"
    expect(specifiers(src).sort()).toEqual(['./side', './w', './x', './y', '@shared/z'])
  })
})
