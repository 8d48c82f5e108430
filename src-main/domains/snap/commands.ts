import type { Command, CommandContext } from '../../plugin/command'
import { UsageError, forceOption, guardCliOutput, intOption, requireString } from '../../plugin/command'
import { writeFileAtomic } from '../../node/atomic'
import { absentStages, listStages, stageScene, stageTrack } from './stages'
import { hex } from '../../../src-shared/binary'
import { STAGE_NAMES as NAMES, openSnapRomArg as open, stageOption, warnAll } from './cli-options'
import { actorCommands, exportStageActors } from './actor-commands'

const r3 = (v: number[]) => v.map((x) => Math.round(x * 1e4) / 1e4)


const stages: Command = {
  name: 'snap stages',
  summary: 'list the seven stages of a Pokémon Snap ROM (rooms, skybox, object spawns)',
  usage: 'snap stages ROM [--json]',
  help: 'ROM: .z64, .v64 or .n64 (also gzip-compressed). JSON: [{"name","sceneId","pathRooms","nonPathRooms","hasSkybox","objects","title","overlayIndex","gameSceneId"}]; sceneId is the overlay-table index (0x10 Beach … 0x1C Rainbow Cloud).',
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const rom = await open(ctx)
    const list = listStages(rom)
    const absent = absentStages(rom)
    if (absent.length && list.length) ctx.err(`note: ${absent.join(', ')}: overlay-table entries empty, not in this image (not listed)`)
    if (ctx.json) {
      ctx.printJson(list)
      return 0
    }
    ctx.out(`${rom.header.name} (${rom.header.code}) MD5 ${rom.md5}${rom.verified ? '' : ' [unverified]'}`)
    ctx.out('stage      overlay  path rooms  non-path rooms  skybox  objects')
    for (const s of list) ctx.out(`${s.name.padEnd(10)} ${hex(s.sceneId).padEnd(8)} ${String(s.pathRooms).padStart(10)}  ${String(s.nonPathRooms).padStart(14)}  ${(s.hasSkybox ? 'yes' : 'no').padEnd(6)}  ${String(s.objects).padStart(7)}`)
    return 0
  },
}

const track: Command = {
  name: 'snap track',
  summary: "a stage's main track (the Zero-One's rail): blocks and world-space samples",
  usage: `snap track ROM --stage NAME [--samples N] [--json]`,
  help: `NAME: ${NAMES}. N: points per B-spline segment (default 8).\nJSON: {"blocks":[{"room","position":[x,y,z],"yaw","controlPoints":[[x,y,z]…],"reversed","duration"}],"world":[[x,y,z]…]}; game units; position = worldPos × 100; controlPoints are block-local (before yaw and position), the blend of the two control lines at cpTime 0.5; world walks the blocks in path-room order with N points per uniform cubic B-spline segment at u = k/(N−1) (both segment ends included), reversed blocks backwards.`,
  options: { stage: { type: 'string' }, samples: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const stage = stageOption(ctx)
    const samples = intOption(ctx, 'samples', 8)!
    if (samples < 1 || samples > 10000) throw new UsageError(`--samples must be 1..10000, got ${samples}`)
    const rom = await open(ctx)
    const t = stageTrack(rom, stage, samples)
    for (const w of t.warnings) ctx.err(`warning: ${w}`)
    if (ctx.json) {
      ctx.printJson({
        blocks: t.blocks.map((b) => ({ room: b.room, position: b.position, yaw: b.yaw, controlPoints: b.controlPoints, reversed: b.reversed, duration: b.duration })),
        world: t.world,
      })
      return 0
    }
    ctx.out(`${stage}: ${t.blocks.length} track blocks, ${t.world.length} world samples`)
    for (const b of t.blocks) ctx.out(`  room ${String(b.room).padStart(3)}  position (${r3(b.position).join(', ')})  yaw ${b.yaw.toFixed(4)}${b.reversed ? '  reversed' : ''}  ${b.controlPoints.length} control points  ${b.duration} frames`)
    return 0
  },
}

const exportCmd: Command = {
  name: 'snap export',
  summary: 'export a stage (rooms placed, skybox, main track and object paths as curves, actors at their spawns) to glTF binary',
  usage: 'snap export ROM --stage NAME --out FILE.glb [--force] [--no-actors] [--json]',
  help: `NAME: ${NAMES}. Unless --no-actors, one node "spawn <i> <actor name>" per object spawn whose actor resolves, holding the actor's joints. Writes nothing on failure. JSON: {"out","bytes","rooms","triangles","textures","curves","actors"}.`,
  options: { stage: { type: 'string' }, out: { type: 'string' }, 'no-actors': { type: 'boolean' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const stage = stageOption(ctx)
    const out = requireString(ctx, 'out')
    guardCliOutput(ctx, out, [ctx.positionals[0]])
    const rom = await open(ctx)
    const { scene, warnings } = stageScene(rom, stage)
    warnAll(ctx, warnings)
    // triangles: the stage's own geometry (counted before the actors' meshes are added)
    let triangles = 0
    for (const m of scene.meshes) for (const p of m.primitives) triangles += p.indices.length / 3
    const actors = ctx.values['no-actors'] === true ? 0 : exportStageActors(ctx, scene, rom, stage)
    const { exportGlb } = await import('../../../src-shared/export/gltf') // glTF-Transform only when exporting
    const glb = await exportGlb(scene)
    await writeFileAtomic(out, glb)
    const rooms = scene.nodes.filter((n) => (n.extras?.snap as { kind?: string } | undefined)?.kind === 'room').length
    const summary = { out, bytes: glb.length, rooms, triangles, textures: scene.textures.length, curves: scene.curves.length, actors }
    if (ctx.json) ctx.printJson(summary)
    else ctx.out(`wrote ${out}: ${glb.length} bytes, ${rooms} rooms, ${triangles} triangles, ${scene.textures.length} textures, ${scene.curves.length} curves, ${actors} actor instances`)
    return 0
  },
}

/** `modbench snap …` commands (see ../shared/CLI.md). */
export const snapCommands: Command[] = [stages, track, exportCmd, ...actorCommands]
