/**
 * `modbench re export`, `re import`, `re pack-mod` (CLI.md "RE Engine motions"): motions to and
 * from glTF 2.0, and a file packed as a Fluffy Mod Manager zip.
 */
import { UsageError, forceOption, requireString, intOption, type Command, type CommandContext } from '../../plugin/command'
import { hex } from '../../../src-shared/binary'
import { GamePathError, checkGamePath } from '../../../src-shared/formats/re/fluffy-mod'
import type { AnimationChoice } from '../../../src-shared/formats/re/gltf-import'

/** glTF-Transform and the zip writer load when a glTF or mod command runs, not when the CLI starts. */
const gltfFiles = () => import('./gltf-files')
import * as path from 'node:path'

function warnAll(ctx: CommandContext, warnings: string[]): void {
  const shown = warnings.slice(0, 100)
  for (const w of shown) ctx.err(`warning: ${w}`)
  if (warnings.length > shown.length) ctx.err(`warning: … and ${warnings.length - shown.length} more`)
}

function optString(ctx: CommandContext, name: string): string | undefined {
  const v = ctx.values[name]
  if (v === undefined) return undefined
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} takes a value`)
  return v
}

const exportCmd: Command = {
  name: 're export',
  summary: 'motions of a .motlist.*/.mot.* as glTF 2.0 (an armature with one action per motion)',
  usage: 're export FILE --out FILE.glb [--force] [--motion I] [--skeleton SKEL] [--no-mesh] [--json]',
  help: [
    'One node per bone (named after it, parented as in the file, at its reference pose), a skin over them,',
    'and each motion (or only motion index I of `re info`) as one glTF animation named after its mot, with',
    'a LINEAR key at every frame (time frame/FrameRate s); rotations are the file\'s quaternions.',
    '--skeleton SKEL (a .mesh.*, or a mot/motlist with bone headers; spec re-motlist §15.10) gives the bones FILE has no',
    'headers for (game motlists have none); clips find their bone by name hash. With a .mesh.* the glb also holds LOD 0 of',
    'the mesh skinned over the bone nodes (one primitive per submesh, one material per material name), unless --no-mesh.',
    'JSON: {"out","bytes","bones","mesh","animations":[{"name","index","id","frames","frameRate","channels"}],"warnings":[…]}',
  ].join('\n'),
  options: { out: { type: 'string' }, motion: { type: 'string' }, skeleton: { type: 'string' }, 'no-mesh': { type: 'boolean' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = ctx.positionals[0]!
    const out = requireString(ctx, 'out')
    const motion = intOption(ctx, 'motion')
    if (motion !== undefined && motion < 0) throw new UsageError('--motion takes a motion index (0 or more)')
    const skeleton = optString(ctx, 'skeleton')
    const { exportMotionGlb } = await gltfFiles()
    // the output rule (FILE and SKEL are inputs, refused even with --force) is checked by exportMotionGlb
    const r = await exportMotionGlb(file, out, motion, { skeleton, noMesh: ctx.values['no-mesh'] === true }, { force: ctx.values.force === true })
    warnAll(ctx, r.warnings)
    const animations = r.built.scene.animations.map((a, i) => ({
      name: a.name,
      index: r.built.motions[i]!,
      id: (a.extras?.re as { id?: number | null } | undefined)?.id ?? null,
      frames: Math.round(a.duration * a.frameRate),
      frameRate: a.frameRate,
      channels: a.channels.length,
    }))
    const mesh = r.built.scene.meshes.length ? { primitives: r.built.scene.meshes.reduce((n, m) => n + m.primitives.length, 0), materials: r.built.scene.materials.length } : null
    if (ctx.json) ctx.printJson({ out: r.path, bytes: r.bytes, bones: r.built.boneNodes.length, mesh, animations, warnings: r.warnings })
    else ctx.out(`wrote ${r.path} (${r.bytes} bytes): ${r.built.boneNodes.length} bones, ${animations.length} animation(s)${mesh ? `, a mesh of ${mesh.primitives} primitive(s) and ${mesh.materials} material(s)` : ''}`)
    return 0
  },
}

/** `--animation NAME[=MOT]` values: a value that is a whole animation name stays one, else it splits at its last `=`. */
function animationChoices(values: string[], names: string[]): AnimationChoice[] {
  return values.map((v) => {
    const eq = v.lastIndexOf('=')
    if (names.includes(v) || eq <= 0 || eq === v.length - 1) return { name: v }
    return { name: v.slice(0, eq), mot: v.slice(eq + 1) }
  })
}

const importCmd: Command = {
  name: 're import',
  summary: 'glTF animations as a .motlist.*/.mot.* in a template\'s version',
  usage: 're import --gltf FILE.glb|.gltf (--into FILE | --template FILE) [--animation NAME[=MOT]]… [--skeleton SKEL] --out OUT [--force] [--id N] [--tolerance E] [--json]',
  help: [
    'Each animation is read as the pose it shows in world space at each frame and mapped back through both',
    'rest poses (the glTF\'s node rest TRS and the template\'s bone reference pose), so an exporter that',
    're-orients bones (Blender\'s "Bone Dir") changes nothing. Nodes are matched to bones by name; unmatched',
    'nodes and template bones the glTF lacks are warnings. Samplers are evaluated at every frame 0..F of the',
    'template\'s FrameRate (F = the last key time × rate); keys on another frame grid (Blender\'s scene rate,',
    '24 fps by default) are a warning naming both rates. One mot per --animation (repeatable; NAME=MOT names',
    'the mot); a glTF with several animations needs --animation. Motion ids: the ones `re export` recorded,',
    'else the template\'s motion of the same name (Blender drops the record), else --id, else 1, 2, ….',
    'Each track is written in the smallest code whose error stays within E (default 1e-6). OUT gets the',
    'template\'s suffix (name.motlist.663 / name.mot.613).',
    '--into ORIGINAL: each animation replaces the mot of ORIGINAL that has its name (NAME=MOT: another mot);',
    'the mot keeps its name, rate and bone headers and animates the channels it had plus any the glTF moves',
    'away from rest; every other byte of ORIGINAL (other mots, ids, names) is kept. OUT gets ORIGINAL\'s suffix.',
    '--skeleton SKEL (a .mesh.* or a mot/motlist with bone headers): the bones of a target without bone headers',
    '(game motlists); the output keeps the target\'s layout, bone headers absent where they were.',
    'JSON: {"out","motions":[{"animation","mot","motionId","frameCount","maxError","tracks":[{"bone","channel","codec","compression","keys","maxError"}]}],"warnings":[…]}',
  ].join('\n'),
  options: { template: { type: 'string' }, into: { type: 'string' }, gltf: { type: 'string' }, animation: { type: 'string', multiple: true }, out: { type: 'string' }, id: { type: 'string' }, tolerance: { type: 'string' }, skeleton: { type: 'string' }, ...forceOption },
  positionals: { min: 0, max: 0 },
  async run(ctx) {
    const into = optString(ctx, 'into')
    if ((into === undefined) === (ctx.values.template === undefined)) throw new UsageError('give exactly one of --into ORIGINAL (replace its mots) and --template FILE (a new motlist)')
    const template = into ?? requireString(ctx, 'template')
    const gltf = requireString(ctx, 'gltf')
    const out = requireString(ctx, 'out')
    const motNumber = intOption(ctx, 'id')
    if (motNumber !== undefined && (motNumber < 0 || motNumber > 0xffff)) throw new UsageError('--id takes a motion ID from 0 to 65535')
    const tolText = optString(ctx, 'tolerance')
    const tolerance = tolText === undefined ? undefined : Number(tolText)
    if (tolerance !== undefined && !(tolerance >= 0 && Number.isFinite(tolerance))) throw new UsageError(`--tolerance takes a number ≥ 0, got ${JSON.stringify(tolText)}`)
    const chosen = (ctx.values.animation as string[] | undefined) ?? []
    if (into !== undefined && motNumber !== undefined) throw new UsageError('--id applies to --template; --into keeps the original\'s motion ids')
    const choose = (names: string[]): AnimationChoice[] | undefined => {
      if (into === undefined && chosen.length === 0 && names.length > 1) throw new UsageError(`${gltf} holds ${names.length} animations; choose with --animation (repeatable): ${names.map((n) => JSON.stringify(n)).join(', ')}`)
      return chosen.length ? animationChoices(chosen, names) : undefined
    }
    const { importGltfMotion } = await gltfFiles()
    const r = await importGltfMotion({ template, into: into !== undefined, gltf, out, motNumber, tolerance, choose, skeletonFile: optString(ctx, 'skeleton') }, { force: ctx.values.force === true })
    warnAll(ctx, r.warnings)
    const motions = r.motions.map((m) => ({
      animation: m.animation,
      mot: m.mot,
      motionId: m.motionId,
      frameCount: m.frameCount,
      maxError: m.maxError,
      tracks: m.tracks.map((t) => ({ bone: t.bone, channel: t.channel, codec: t.codec, compression: hex(t.compression), keys: t.keys, maxError: t.maxError })),
    }))
    if (ctx.json) {
      ctx.printJson({ out: r.path, motions, warnings: r.warnings })
      return 0
    }
    ctx.out(`wrote ${r.path}: ${r.kind} ${r.version} (mot ${r.motVersion}) at ${r.frameRate} fps, largest key error ${r.maxError.toExponential(2)}`)
    for (const m of r.motions) ctx.out(`  "${m.animation}" → mot "${m.mot}", id ${m.motionId}, ${m.frameCount} frames, ${new Set(m.tracks.map((t) => t.bone)).size} bones, ${m.tracks.length} tracks`)
    if (r.unmatchedNodes.length) ctx.out(`${r.unmatchedNodes.length} animated node(s) match no template bone (listed on stderr)`)
    return 0
  },
}

const packModCmd: Command = {
  name: 're pack-mod',
  summary: 'a file packed as a Fluffy Mod Manager mod zip (modinfo.ini + the file at its natives/ path)',
  usage: 're pack-mod --file FILE --game-path natives/stm/… --name NAME [--author A] [--version V] [--description D] [--screenshot PNG] --out MOD.zip [--force] [--json]',
  help: [
    'The zip holds modinfo.ini (name, version, description, author, screenshot) and FILE at the game path',
    '(a path ending in / gets FILE\'s name). A game path outside natives/ or with .. is a usage error.',
    'An existing OUT is replaced only with --force. JSON: {"out","size","gamePath","entries":[…]}',
  ].join('\n'),
  options: {
    file: { type: 'string' },
    'game-path': { type: 'string' },
    name: { type: 'string' },
    author: { type: 'string' },
    version: { type: 'string' },
    description: { type: 'string' },
    screenshot: { type: 'string' },
    out: { type: 'string' },
    ...forceOption,
  },
  positionals: { min: 0, max: 0 },
  async run(ctx) {
    const file = requireString(ctx, 'file')
    const gamePath = requireString(ctx, 'game-path')
    const name = requireString(ctx, 'name')
    const out = requireString(ctx, 'out')
    try {
      checkGamePath(gamePath, path.basename(file))
    } catch (e) {
      if (e instanceof GamePathError) throw new UsageError(`--game-path: ${e.message}`)
      throw e
    }
    const { packMod } = await gltfFiles()
    const r = await packMod({ file, gamePath, name, out, author: ctx.values.author as string | undefined, version: ctx.values.version as string | undefined, description: ctx.values.description as string | undefined, screenshot: optString(ctx, 'screenshot') }, { force: ctx.values.force === true })
    if (ctx.json) ctx.printJson({ out: r.path, size: r.size, gamePath: r.gamePath, entries: r.entries })
    else ctx.out(`wrote ${r.path} (${r.size} bytes): ${r.entries.join(', ')}`)
    return 0
  },
}

export const reGltfCommands: Command[] = [exportCmd, importCmd, packModCmd]
