import { existsSync } from 'node:fs'
import { defaultDbPath } from '../../catalog/paths'
import type { Command } from '../../plugin/command'
import { UsageError, requireString } from '../../plugin/command'

const exportCmd: Command = {
  name: 'export',
  summary: 'export a model, actor or stage (or the built-in demo) to glTF 2.0 binary',
  usage: 'export ID --out FILE.glb [--force] [--db FILE] [--json]',
  help: [
    'ID is a catalog id printed by `ls`/`find`, or `demo` for the built-in demo scene (no catalog needed).',
    'Skins, animations (one per clip, in seconds), textures (PNG) and node names are kept; curves,',
    'texture-swap, visibility, UV and colour tracks and actor metadata go to documented `extras`',
    '(see src-shared/export/gltf.ts). The file is written atomically; missing parent folders are created.',
    'An existing --out is replaced only with --force; --out may never be a source file of the catalog.',
    'JSON: {"id","kind","name","out","bytes","nodes","meshes","materials","textures","skins","animations","curves"}',
  ].join('\n'),
  options: { out: { type: 'string' }, db: { type: 'string' }, force: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const idArg = ctx.positionals[0]
    const out = requireString(ctx, 'out') // printed as typed, like every path the user gives
    let id: number | 'demo'
    if (idArg === 'demo') id = 'demo'
    // A well-formed id that names no asset (0 included) is bad input (exit 1), not a usage error.
    else if (/^\d+$/.test(idArg)) id = Number(idArg)
    else throw new UsageError(`ID must be a catalog id (a whole number) or "demo", got ${JSON.stringify(idArg)}`)
    if (!/\.glb$/i.test(out)) ctx.err(`warning: ${out} does not end in .glb; writing binary glTF anyway`)

    const dbPath = typeof ctx.values.db === 'string' && ctx.values.db ? ctx.values.db : defaultDbPath()
    // Exporting only reads the catalog: a missing one is an error, never created as a side effect.
    if (id !== 'demo' && !existsSync(dbPath)) throw new Error(`no catalog at ${dbPath}: index files first (\`modbench index PATH --db ${dbPath}\`)`)
    // glTF-Transform, SQLite and the scene builders load here, not when the CLI starts
    const [{ openCatalog }, { exportSceneGlb }] = await Promise.all([import('../../catalog/catalog'), import('../../services/scene-export')])
    const catalog = id === 'demo' ? null : openCatalog(dbPath)
    try {
      const summary = await exportSceneGlb(catalog, id, out, {
        overwrite: ctx.values.force === true, flag: '--out', agree: 'pass --force to replace it', signal: ctx.signal, protect: catalog ? [dbPath] : [],
      })
      if (ctx.json) ctx.printJson(summary)
      else {
        ctx.out(`wrote ${out} (${summary.bytes} bytes): ${summary.nodes} nodes, ${summary.meshes} meshes, ${summary.skins} skins, ${summary.animations} animations`)
      }
      return 0
    } finally {
      catalog?.close()
    }
  },
}

/** `modbench export …` commands (see ../shared/CLI.md). */
export const exportCommands: Command[] = [exportCmd]
