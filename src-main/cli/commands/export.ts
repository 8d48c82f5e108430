import * as path from 'node:path'
import { promises as fsp } from 'node:fs'
import { exportGlb } from '../../../src-shared/export/gltf'
import { openCatalog } from '../../catalog/catalog'
import { defaultDbPath } from '../../catalog/paths'
import { writeFileAtomic } from '../../node/atomic'
import { buildAssetScene, sceneKinds } from '../../services/scene-builders'
import type { Command } from '../command'
import { UsageError, requireString } from '../command'

const exportCmd: Command = {
  name: 'export',
  summary: 'export a model, actor or stage (or the built-in demo) to glTF 2.0 binary',
  usage: 'export ID --out FILE.glb [--db FILE] [--json]',
  help: [
    'ID is a catalog id printed by `ls`/`find`, or `demo` for the built-in demo scene (no catalog needed).',
    'Skins, animations (one per clip, in seconds), textures (PNG) and node names are kept; curves,',
    'texture-swap, visibility, UV and colour tracks and actor metadata go to documented `extras`',
    '(see src-shared/export/gltf.ts). The file is written atomically.',
    'JSON: {"id","kind","name","out","bytes","nodes","meshes","materials","textures","skins","animations","curves"}',
  ].join('\n'),
  options: { out: { type: 'string' }, db: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const idArg = ctx.positionals[0]
    const out = path.resolve(requireString(ctx, 'out'))
    let id: number | 'demo'
    if (idArg === 'demo') id = 'demo'
    else if (/^\d+$/.test(idArg) && Number(idArg) > 0) id = Number(idArg)
    else throw new UsageError(`ID must be a catalog id (a positive whole number) or "demo", got ${JSON.stringify(idArg)}`)
    if (!/\.glb$/i.test(out)) ctx.err(`warning: ${out} does not end in .glb; writing binary glTF anyway`)

    const catalog = id === 'demo' ? null : openCatalog(typeof ctx.values.db === 'string' && ctx.values.db ? path.resolve(ctx.values.db) : defaultDbPath())
    try {
      const { scene, asset, source } = await buildAssetScene(catalog, id, { signal: ctx.signal })
      const glb = await exportGlb(scene, { skipValidation: true })
      await fsp.mkdir(path.dirname(out), { recursive: true })
      await writeFileAtomic(out, glb, source ? [source.path] : [])
      const summary = {
        id,
        kind: asset?.kind ?? 'demo',
        name: asset?.name ?? scene.name,
        out,
        bytes: glb.byteLength,
        nodes: scene.nodes.length,
        meshes: scene.meshes.length,
        materials: scene.materials.length,
        textures: scene.textures.length,
        skins: scene.skins.length,
        animations: scene.animations.length,
        curves: scene.curves.length,
      }
      if (ctx.json) ctx.printJson(summary)
      else {
        ctx.out(`wrote ${out} (${glb.byteLength} bytes): ${summary.nodes} nodes, ${summary.meshes} meshes, ${summary.skins} skins, ${summary.animations} animations`)
      }
      return 0
    } finally {
      catalog?.close()
    }
  },
}

/** `modbench export …` commands (see ../shared/CLI.md). */
export const exportCommands: Command[] = [exportCmd]

export { sceneKinds }
