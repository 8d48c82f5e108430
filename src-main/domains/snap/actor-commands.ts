/**
 * `modbench snap actors` and `modbench snap actor` (CLI.md "Pokémon Snap ROM"), and the actor
 * part of `snap export` (`exportStageActors`, called from src-main/cli/commands/snap.ts).
 */
import type { Command, CommandContext } from '../../plugin/command'
import { forceOption, guardCliOutput, requireString } from '../../plugin/command'
import { writeFileAtomic } from '../../node/atomic'
import { STAGE_NAMES as NAMES, openSnapRomArg, stageOption, warnAll } from './cli-options'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import type { Scene } from '../../../src-shared/scene/types'
import { actorScene, addStageActors, listStageActors } from './actor-service'


export const actorsCommand: Command = {
  name: 'snap actors',
  summary: 'list the actors a stage can show (PokemonDefs, the Zero-One, common assets): nodes, meshes, animations',
  usage: 'snap actors ROM --stage NAME [--json]',
  help: `NAME: ${NAMES}. JSON: [{"id","name","spawns","nodes","meshes","triangles","animations":[{"name","frames"}],"materialTracks","hd","archive","spawnType","error"?}]; name is the species for ids 1–151, else "object <id>"; the Zero-One is id 0, the other common assets (apple, pester ball, water/lava splash) ids −1…−4 when mapped; meshes counts the primitives of the actor's mesh. An actor whose data cannot be resolved is listed with "error" and the rest go on (exit 0).`,
  options: { stage: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const stage = stageOption(ctx)
    const rom = await openSnapRomArg(ctx)
    const { items, warnings } = listStageActors(rom, stage)
    warnAll(ctx, warnings)
    if (ctx.json) {
      ctx.printJson(items)
      return 0
    }
    ctx.out(`${stage}: ${items.length} actors`)
    ctx.out('    id  name              archive    spawns  nodes  tris  animations  hd')
    for (const a of items) {
      const line = `${String(a.id).padStart(6)}  ${a.name.padEnd(16)}  ${a.archive.padEnd(9)}  ${String(a.spawns).padStart(6)}  ${String(a.nodes).padStart(5)}  ${String(a.triangles).padStart(4)}  ${String(a.animations.length).padStart(10)}  ${a.hd ? 'yes' : 'no'}`
      ctx.out(a.error ? `${line}  ERROR: ${a.error}` : line)
    }
    return 0
  },
}

export const actorCommand: Command = {
  name: 'snap actor',
  summary: 'export one actor (joints per node, skinned mesh, textures, animations) to glTF binary',
  usage: 'snap actor ROM --stage NAME --id ID --out FILE.glb [--force] [--hd] [--json]',
  help: `NAME: ${NAMES}. ID: the actor id of \`snap actors\` (0 = zero-one; a name also works, e.g. --id pikachu). Joint nodes are named "node <i>"; each animation is named after its AnimationHeader address in hex and sampled per animation frame (30 × speed fps); material tracks travel as texture-swap / UV tracks in extras. --hd uses the HD photo model (an error when the actor has none). Writes nothing on failure. JSON: {"out","bytes","nodes","triangles","animations"}.`,
  options: { stage: { type: 'string' }, id: { type: 'string' }, out: { type: 'string' }, hd: { type: 'boolean' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const stage = stageOption(ctx)
    const id = requireString(ctx, 'id')
    const out = requireString(ctx, 'out')
    guardCliOutput(ctx, out, [ctx.positionals[0]])
    const rom = await openSnapRomArg(ctx)
    const { scene, warnings, actor } = actorScene(rom, stage, id, { hd: ctx.values.hd === true })
    warnAll(ctx, warnings)
    const { exportGlb } = await import('../../../src-shared/export/gltf') // glTF-Transform only when exporting
    const glb = await exportGlb(scene)
    await writeFileAtomic(out, glb)
    let triangles = 0
    for (const m of scene.meshes) for (const p of m.primitives) triangles += p.indices.length / 3
    const nodes = scene.nodes.filter((n) => (n.extras?.snap as { kind?: string } | undefined)?.kind === 'joint').length
    const summary = { out, bytes: glb.length, id: actor.id, name: actor.name, nodes, triangles, animations: scene.animations.map((a) => a.name) }
    if (ctx.json) ctx.printJson(summary)
    else ctx.out(`wrote ${out}: ${actor.name}, ${glb.length} bytes, ${nodes} joints, ${triangles} triangles, ${scene.animations.length} animations`)
    return 0
  },
}

/** The actor part of `snap export` (unless --no-actors): adds the instances, reports warnings, returns the instance count. */
export function exportStageActors(ctx: CommandContext, scene: Scene, rom: N64Rom, stage: string): number {
  const res = addStageActors(scene, rom, stage)
  warnAll(ctx, res.warnings)
  return res.instances
}

export const actorCommands: Command[] = [actorsCommand, actorCommand]
