/** `modbench gf models` and `modbench gf motions` (CLI.md "GF package sets"). */
import type { Command, CommandContext } from '../../plugin/command'
import { inSetFolder, loadSet } from './set-folder'
import type { GfSet } from '../../../src-shared/formats/gf/gf-set'
import { setModelsJson, setMotionsJson } from './model-json'
import { SET_HELP, namingSetFolder, reportSet } from './set-cli'

/** A listing command over a set: items with an optional `error`; exit 1 when any is broken. */
function listing<T extends { error?: string }>(list: (set: GfSet) => T[], line: (item: T) => string, noun: string) {
  return async (ctx: CommandContext): Promise<number> => {
    const set = await loadSet(ctx.positionals[0]!, { lenient: true })
    reportSet(ctx, set)
    // an item's error names its member with the set folder, in JSON too (`SET/0.bin: …`)
    const items = list(set).map((m) => (m.error ? { ...m, error: inSetFolder(set.dir, m.error) } : m))
    for (const m of items) if (m.error) ctx.err(`modbench ${noun === 'model' ? 'gf models' : 'gf motions'}: error: ${m.error}`)
    if (ctx.json) ctx.printJson(items)
    else {
      for (const m of items) ctx.out(line(m))
      ctx.out(`${items.length} ${noun}${items.length === 1 ? '' : 's'}`)
    }
    return items.some((m) => m.error) ? 1 : 0
  }
}

export const gfModelsCommand: Command = namingSetFolder({
  name: 'gf models',
  summary: 'list the GF models of a set (LOD, bones, meshes, vertices, triangles, materials)',
  usage: 'gf models SET [--json]',
  help: `${SET_HELP}\nJSON: [{"file","entry","lod":"high"|"low","name","bones":[{"name","parent"}],"meshes","vertices","triangles","materials":[{"name","textures":[…]}]}];\nvertices/triangles count what the decoded index buffers draw. An unreadable model is listed with "error" (file, entry, structure, offset) and the exit code is 1.`,
  positionals: { min: 1, max: 1 },
  run: listing(setModelsJson, (m) => (m.error ? `${m.file} ${m.entry} ${m.lod}: ${m.error}` : `${m.file} ${m.entry} ${m.lod.padEnd(4)}  ${m.bones.length} bones  ${m.meshes} meshes  ${m.vertices} vertices  ${m.triangles} triangles  ${m.materials.length} materials`), 'model'),
})

export const gfMotionsCommand: Command = namingSetFolder({
  name: 'gf motions',
  summary: 'list the GF motions of a set (frames, loop, what each section animates, slot label)',
  usage: 'gf motions SET [--json]',
  help: `${SET_HELP}\nJSON: [{"file","entry","frames","loop","skeletal","material","visibility","label"?}]: skeletal/material/visibility count the bones,\nmaterials and meshes each section animates (0 when absent); label is a UI hint (spec §11.9). An unreadable motion is listed with\n"error" and the exit code is 1.`,
  positionals: { min: 1, max: 1 },
  run: listing(setMotionsJson, (m) => (m.error ? `${m.file} ${String(m.entry).padStart(3)}  broken: ${m.error}` : `${m.file} ${String(m.entry).padStart(3)}  ${String(m.frames).padStart(4)} frames${m.loop ? ' loop' : '     '}  skeletal ${m.skeletal}  material ${m.material}  visibility ${m.visibility}${m.label ? `  ${m.label}` : ''}`), 'motion'),
})
