/**
 * "No generic file names a game": the platform's files (CLI table, services, indexer, transports,
 * catalog, the renderer's shell and generic components, the catalog API) contain no asset or
 * source kind of any domain manifest and import no game folder; what depends on a game comes from
 * the manifests through the lists (src-shared/domains.ts, src-main/domains/index.ts into the registry,
 * src-renderer/domains.ts). Comments are not code and are skipped.
 */
import { describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { sharedDomains } from '../../../src-shared/domains'

const root = path.resolve(import.meta.dirname, '..', '..', '..')

const GENERIC_DIRS = ['src-main/plugin', 'src-main/cli', 'src-main/services', 'src-main/indexer', 'src-main/transport', 'src-main/catalog', 'src-main/node', 'src-renderer/stores']
const GENERIC_FILES = [
  'src-main/index.ts', 'src-main/preload.ts',
  'src-renderer/App.vue', 'src-renderer/main.ts', 'src-renderer/app.ts', 'src-renderer/early-open.ts', 'src-renderer/bridge.ts', 'src-renderer/http-bridge.ts', 'src-renderer/domain.ts',
  'src-shared/domain.ts', 'src-shared/api/catalog.ts', 'src-shared/api/scene.ts',
]

function genericFiles(): string[] {
  const out = GENERIC_FILES.filter((f) => fs.existsSync(path.join(root, f)))
  for (const d of GENERIC_DIRS) out.push(...(fs.readdirSync(path.join(root, d), { recursive: true }) as string[]).filter((f) => /\.(ts|vue)$/.test(f)).map((f) => path.join(d, f)))
  out.push(...fs.readdirSync(path.join(root, 'src-renderer/components')).filter((f) => f.endsWith('.vue')).map((f) => `src-renderer/components/${f}`))
  return out
}

function code(file: string): string {
  const src = fs.readFileSync(path.join(root, file), 'utf8')
  // comments out; the <template> and <style> of a .vue file stay (a kind in markup counts too)
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1').replace(/<!--[\s\S]*?-->/g, '')
}

describe('generic files', () => {
  it('name no kind of any domain and import no game folder', () => {
    const kinds = [...new Set(sharedDomains().flatMap((d) => [...Object.keys(d.assetKinds), ...Object.keys(d.sourceKinds)]))]
    // the N64 platform (ROM byte orders and header, the `n64Games` socket) is shared by its games, not one
    const games = sharedDomains().map((d) => d.id).filter((id) => id !== 'n64')
    const files = genericFiles()
    expect(files.length).toBeGreaterThan(30)
    const bad: string[] = []
    for (const f of files) {
      const c = code(f)
      for (const k of kinds) if (new RegExp(`['"\`]${k}['"\`]`).test(c)) bad.push(`${f} names the kind ${k}`)
      for (const g of games) if (new RegExp(`from\\s+['"][^'"]*/(formats|domains|components)/${g}/`).test(c) || new RegExp(`import\\(\\s*['"][^'"]*/${g}/`).test(c)) bad.push(`${f} imports the ${g} folder`)
    }
    expect(bad).toEqual([])
  })

  it('the N64 platform names no game: no game id, title or image MD5 in its code (each game declares its own identity)', () => {
    const platform = ['src-shared/formats/n64', 'src-main/domains/n64'].flatMap((d) => (fs.readdirSync(path.join(root, d)) as string[]).filter((f) => f.endsWith('.ts')).map((f) => `${d}/${f}`))
    expect(platform.length).toBeGreaterThan(5)
    const games = sharedDomains().filter((d) => d.id !== 'n64')
    const bad: string[] = []
    for (const f of platform) {
      const c = code(f)
      for (const g of games) {
        if (new RegExp(`\\b${g.id}\\b`, 'i').test(c)) bad.push(`${f} names ${g.id}`)
        if (c.toLowerCase().includes(g.title.toLowerCase())) bad.push(`${f} names ${g.title}`)
      }
      if (/\bPOKEMON\b/i.test(c)) bad.push(`${f} names a header name`)
      if (/['"`][0-9a-f]{32}['"`]/i.test(c)) bad.push(`${f} holds an MD5`)
    }
    expect(bad).toEqual([])
  })
})
