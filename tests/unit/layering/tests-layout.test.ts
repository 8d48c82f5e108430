import { describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'

/**
 * Keeps the `tests/` layout that the README states: unit/ mirrors the source folders, test files
 * live only in unit/, integration/ and e2e/, builders of synthetic inputs in fixtures/, shared
 * test code in helpers/, reference implementations that differential tests compare against in oracles/.
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..')
const tests = path.join(root, 'tests')
const isDir = (p: string) => fs.existsSync(p) && fs.statSync(p).isDirectory()
const walk = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => path.join(dir, f))

describe('tests/ layout', () => {
  it('has exactly the six folders', () => {
    const top = fs.readdirSync(tests).filter((f) => isDir(path.join(tests, f)))
    expect(top.sort()).toEqual(['e2e', 'fixtures', 'helpers', 'integration', 'oracles', 'unit'])
    expect(fs.readdirSync(tests).filter((f) => !isDir(path.join(tests, f)))).toEqual([])
  })

  it('test files live only in unit/, integration/ and e2e/', () => {
    const bad = walk(tests)
      .filter((f) => /\.test\.ts$/.test(f))
      .map((f) => path.relative(tests, f))
      .filter((f) => !/^(unit|integration|e2e)\//.test(f.split(path.sep).join('/')))
    expect(bad).toEqual([])
  })

  it('unit/ mirrors the source folders (a game\'s Node-side tests in unit/src-main/<game>/)', () => {
    const games = fs.readdirSync(path.join(root, 'src-shared', 'formats'))
    const unit = path.join(tests, 'unit')
    const bad: string[] = []
    for (const layer of fs.readdirSync(unit)) {
      if (layer === 'layering') continue // the layer rules themselves
      if (!/^src-(shared|main|renderer)$/.test(layer)) {
        bad.push(`unit/${layer}: not a source folder`)
        continue
      }
      for (const d of walk(path.join(unit, layer)).filter(isDir)) {
        const rel = path.relative(path.join(unit, layer), d)
        const [first] = rel.split(path.sep)
        const mirrored = isDir(path.join(root, layer, rel)) || (layer === 'src-main' && (games.includes(first!) || isDir(path.join(root, layer, 'domains', rel))))
        if (!mirrored) bad.push(`unit/${layer}/${rel}: no ${layer}/${rel}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('integration/ holds only the CLI contract, fuzz, fault-injection, indexer and domain-plugin tests', () => {
    for (const f of fs.readdirSync(path.join(tests, 'integration'))) expect(f).toMatch(/^(contract|fuzz|faults|index|domains)[\w-]*\.test\.ts$/)
  })
})
