/**
 * `modbench re export`, `re import`, `re pack-mod` (CLI.md "RE Engine motions"): motions to and
 * from glTF 2.0, and a file packed as a Fluffy Mod Manager zip.
 */
import { UsageError, forceOption, requireString, intOption, type Command, type CommandContext } from '../../cli/command'
import { hex } from '../../../src-shared/binary'
import { GamePathError, checkGamePath } from '../../../src-shared/formats/re/fluffy-mod'

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
  usage: 're export FILE --out FILE.glb [--force] [--motion I] [--skeleton FILE.mesh.*] [--json]',
  help: [
    'One node per bone (named after it, parented as in the file, at its reference pose), a skin over them,',
    'and each motion (or only motion index I of `re info`) as one glTF animation named after its mot, with',
    'a LINEAR key at every frame (time frame/FrameRate s); rotations are the file\'s quaternions.',
    '--skeleton (a mesh skeleton) is not supported yet: the bone headers of FILE give the skeleton.',
    'JSON: {"out","bytes","bones","animations":[{"name","index","id","frames","frameRate","channels"}],"warnings":[…]}',
  ].join('\n'),
  options: { out: { type: 'string' }, motion: { type: 'string' }, skeleton: { type: 'string' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = ctx.positionals[0]!
    const out = requireString(ctx, 'out')
    const motion = intOption(ctx, 'motion')
    if (motion !== undefined && motion < 0) throw new UsageError('--motion takes a motion index (0 or more)')
    if (ctx.values.skeleton !== undefined) throw new UsageError('--skeleton is not supported yet (mesh files are not read); the bone headers of FILE give the skeleton')
    const { exportMotionGlb } = await gltfFiles()
    const r = await exportMotionGlb(file, out, motion, { force: ctx.values.force === true })
    warnAll(ctx, r.warnings)
    const animations = r.built.scene.animations.map((a, i) => ({
      name: a.name,
      index: r.built.motions[i]!,
      id: (a.extras?.re as { id?: number | null } | undefined)?.id ?? null,
      frames: Math.round(a.duration * a.frameRate),
      frameRate: a.frameRate,
      channels: a.channels.length,
    }))
    if (ctx.json) ctx.printJson({ out: r.path, bytes: r.bytes, bones: r.built.boneNodes.length, animations, warnings: r.warnings })
    else ctx.out(`wrote ${r.path} (${r.bytes} bytes): ${r.built.boneNodes.length} bones, ${animations.length} animation(s)`)
    return 0
  },
}

const importCmd: Command = {
  name: 're import',
  summary: 'a glTF animation as a .motlist.*/.mot.* in a template\'s version',
  usage: 're import --template FILE --gltf FILE.glb|.gltf [--animation NAME] --out OUT [--force] [--id N] [--tolerance E] [--json]',
  help: [
    'Channels are matched to the template\'s bones by node name (unmatched nodes are warnings). Samplers',
    '(STEP, LINEAR, CUBICSPLINE with tangents) are evaluated at every frame 0..F of the template\'s FrameRate,',
    'F = the last key time × rate. Each track is written in the smallest code whose error stays within',
    'E (default 1e-6; rotations single-axis float or 3Component, vectors single-axis float or Full), and',
    'the error is reported. OUT gets the template\'s suffix (name.motlist.663 / name.mot.613).',
    '--animation: default the first animation. --id: motion ID of the entry (default: the ID recorded by',
    '`re export`, else 0).',
    'JSON: {"out","kind","version","motVersion","animation","frameCount","frameRate","id","tracks":[{"bone","channel","codec","compression","keys","maxError"}],"maxError","unmatchedNodes":[…],"warnings":[…],"size"}',
  ].join('\n'),
  options: { template: { type: 'string' }, gltf: { type: 'string' }, animation: { type: 'string' }, out: { type: 'string' }, id: { type: 'string' }, tolerance: { type: 'string' }, ...forceOption },
  positionals: { min: 0, max: 0 },
  async run(ctx) {
    const template = requireString(ctx, 'template')
    const gltf = requireString(ctx, 'gltf')
    const out = requireString(ctx, 'out')
    const motNumber = intOption(ctx, 'id')
    if (motNumber !== undefined && (motNumber < 0 || motNumber > 0xffff)) throw new UsageError('--id takes a motion ID from 0 to 65535')
    const tolText = optString(ctx, 'tolerance')
    const tolerance = tolText === undefined ? undefined : Number(tolText)
    if (tolerance !== undefined && !(tolerance >= 0 && Number.isFinite(tolerance))) throw new UsageError(`--tolerance takes a number ≥ 0, got ${JSON.stringify(tolText)}`)
    const { importGltfMotion } = await gltfFiles()
    const r = await importGltfMotion({ template, gltf, out, animation: optString(ctx, 'animation'), motNumber, tolerance }, { force: ctx.values.force === true })
    warnAll(ctx, r.warnings)
    const tracks = r.tracks.map((t) => ({ bone: t.bone, channel: t.channel, codec: t.codec, compression: hex(t.compression), keys: t.keys, maxError: t.maxError }))
    if (ctx.json) {
      ctx.printJson({ out: r.path, kind: r.kind, version: r.version, motVersion: r.motVersion, animation: r.animation, frameCount: r.frameCount, frameRate: r.frameRate, id: r.motNumber, tracks, maxError: r.maxError, unmatchedNodes: r.unmatchedNodes, warnings: r.warnings, size: r.size })
      return 0
    }
    const bones = new Set(r.tracks.map((t) => t.bone)).size
    ctx.out(`wrote ${r.path}: ${r.kind} ${r.version} (mot ${r.motVersion}), "${r.animation}", ${r.frameCount} frames at ${r.frameRate} fps, ${bones} bones, ${r.tracks.length} tracks, largest key error ${r.maxError.toExponential(2)}`)
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
