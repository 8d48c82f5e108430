/** `modbench gf models` and `modbench gf motions` (CLI.md "GF package sets"). */
import type { Command, CommandContext } from '../../cli/command'
import { loadSet } from './set-folder'
import type { GfSet } from '../../../src-shared/formats/gf/gf-set'
import { setModelsJson, setMotionsJson } from './model-json'

const SET_HELP = 'SET is a folder holding the nine files 0.bin … 8.bin, or GARC#N: set N of a GARC archive (missing ones are reported on stderr, not fatal).'

function warnings(ctx: CommandContext, set: GfSet): void {
  if (set.missing.length) ctx.err(`warning: ${set.missing.join(', ')} missing from the set`)
  for (const w of set.warnings) ctx.err(`warning: ${w}`)
}

/** A listing command over a set: items with an optional `error`; exit 1 when any is broken. */
function listing<T extends { error?: string }>(list: (set: GfSet) => T[], line: (item: T) => string, noun: string) {
  return async (ctx: CommandContext): Promise<number> => {
    const set = await loadSet(ctx.positionals[0]!, { lenient: true })
    warnings(ctx, set)
    const items = list(set)
    for (const m of items) if (m.error) ctx.err(`modbench ${noun === 'model' ? 'gf models' : 'gf motions'}: error: ${m.error}`)
    if (ctx.json) ctx.printJson(items)
    else {
      for (const m of items) ctx.out(line(m))
      ctx.out(`${items.length} ${noun}${items.length === 1 ? '' : 's'}`)
    }
    return items.some((m) => m.error) ? 1 : 0
  }
}

export const gfModelsCommand: Command = {
  name: 'gf models',
  summary: 'list the GF models of a set (LOD, bones, meshes, vertices, triangles, materials)',
  usage: 'gf models SET [--json]',
  help: `${SET_HELP}\nJSON: [{"file","entry","lod":"high"|"low","name","bones":[{"name","parent"}],"meshes","vertices","triangles","materials":[{"name","textures":[…]}]}];\nvertices/triangles count what the decoded index buffers draw. An unreadable model is listed with "error" (file, entry, structure, offset) and the exit code is 1.`,
  positionals: { min: 1, max: 1 },
  run: listing(setModelsJson, (m) => (m.error ? `${m.file} ${m.entry} ${m.lod}: ${m.error}` : `${m.file} ${m.entry} ${m.lod.padEnd(4)}  ${m.bones.length} bones  ${m.meshes} meshes  ${m.vertices} vertices  ${m.triangles} triangles  ${m.materials.length} materials`), 'model'),
}

export const gfMotionsCommand: Command = {
  name: 'gf motions',
  summary: 'list the GF motions of a set (frames, loop, what each section animates, slot label)',
  usage: 'gf motions SET [--json]',
  help: `${SET_HELP}\nJSON: [{"file","entry","frames","loop","skeletal","material","visibility","label"?}]: skeletal/material/visibility count the bones,\nmaterials and meshes each section animates (0 when absent); label is a UI hint (spec §11.9). An unreadable motion is listed with\n"error" and the exit code is 1.`,
  positionals: { min: 1, max: 1 },
  run: listing(setMotionsJson, (m) => (m.error ? `${m.file} ${String(m.entry).padStart(3)}  broken: ${m.error}` : `${m.file} ${String(m.entry).padStart(3)}  ${String(m.frames).padStart(4)} frames${m.loop ? ' loop' : '     '}  skeletal ${m.skeletal}  material ${m.material}  visibility ${m.visibility}${m.label ? `  ${m.label}` : ''}`), 'motion'),
}
