import { afterAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import ts from 'typescript'

/**
 * The per-layer tsconfigs are what makes the compiler guard the layering (`npm run typecheck`
 * runs each). This compiles tiny probe files under each layer's real compiler options (read from
 * the config file itself, so a loosened config fails here) and checks which globals and imports
 * each layer accepts. Every layer also gets a probe that must compile, so a probe that fails for
 * an unrelated reason (a typo, a missing lib) cannot pass as "rejected".
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'modbench-layer-probe-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function parse(config: string): ts.ParsedCommandLine {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  }
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, config), undefined, host)
  if (!parsed) throw new Error(`cannot read ${config}`)
  return parsed
}

const configs = new Map<string, ts.ParsedCommandLine>()
let probeNo = 0

/** Error codes of compiling `code` as one file under `config`'s options (plus its own .d.ts files). */
function compile(config: string, code: string): number[] {
  let parsed = configs.get(config)
  if (!parsed) configs.set(config, (parsed = parse(config)))
  const probe = path.join(dir, `probe${probeNo++}.ts`)
  fs.writeFileSync(probe, `${code}\nexport {}\n`)
  const ambient = parsed.fileNames.filter((f) => f.endsWith('.d.ts'))
  const program = ts.createProgram({ rootNames: [probe, ...ambient], options: parsed.options })
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === probe || d.file === undefined)
    .map((d) => d.code)
}

const NODE_IMPORT = `import * as fs from 'node:fs'\nfs.readFileSync('x')`
const NODE_GLOBAL = `Buffer.from([1]); process.exit(0)`
const DOM_GLOBAL = `document.title = String(window.innerWidth)`
const WEB_STANDARD = `const t: string = new TextDecoder().decode(new TextEncoder().encode('a')); console.log(t)`

describe('per-layer tsconfigs', () => {
  it('shared: no Node import, no Node or DOM global; the declared web-standard globals compile', () => {
    expect(compile('tsconfig.shared.json', WEB_STANDARD)).toEqual([])
    expect(compile('tsconfig.shared.json', NODE_IMPORT)).toContain(2307) // cannot find module
    expect(compile('tsconfig.shared.json', NODE_GLOBAL)).toContain(2591) // cannot find name (Node)
    expect(compile('tsconfig.shared.json', DOM_GLOBAL)).toContain(2584) // cannot find name (DOM)
  })

  it('renderer: DOM yes, Node no', () => {
    expect(compile('tsconfig.renderer.json', `${DOM_GLOBAL}\n${WEB_STANDARD}`)).toEqual([])
    expect(compile('tsconfig.renderer.json', NODE_IMPORT)).toContain(2307)
    expect(compile('tsconfig.renderer.json', NODE_GLOBAL)).toContain(2591)
  })

  it('main: Node yes, DOM no', () => {
    expect(compile('tsconfig.main.json', `${NODE_IMPORT}\n${NODE_GLOBAL}\n${WEB_STANDARD}`)).toEqual([])
    expect(compile('tsconfig.main.json', DOM_GLOBAL)).toContain(2584)
  })

  it('the root config (tests, bench, config files) has both', () => {
    expect(compile('tsconfig.json', `${NODE_IMPORT}\n${NODE_GLOBAL}\n${DOM_GLOBAL}`)).toEqual([])
  })

  it('npm run typecheck runs every layer config', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    for (const c of ['tsconfig.shared.json', 'tsconfig.main.json', 'tsconfig.renderer.json', 'tsconfig.json']) {
      expect(pkg.scripts.typecheck).toContain(`-p ${c}`)
    }
  })
})
