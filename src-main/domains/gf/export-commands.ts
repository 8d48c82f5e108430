/** `modbench gf export` and `modbench gf export-all` (CLI.md "GF package sets"). */
import * as path from 'node:path'
import { promises as fsp } from 'node:fs'
import { UsageError, forceOption, guardCliOutput, requireString, type Command, type CommandContext } from '../../plugin/command'
import { inSetFolder, loadSet, setSceneName } from './set-folder'
import { folderTextures, namingSetFolder, parseTextureArg, reportSet } from './set-cli'
import type { GfSet } from '../../../src-shared/formats/gf/gf-set'
import { writeFileAtomic } from '../../node/atomic'
import { lodOption } from './lod-option'

function lod(v: unknown) {
  const l = lodOption(v)
  if (l === 'bad') throw new UsageError(`--lod takes high or low, got ${JSON.stringify(v)}`)
  return l
}

/** `--texture` and `--png-folder` of `gf export`: the replacements to show in the glb (PNG paths as given). */
async function exportReplacements(ctx: CommandContext, set: GfSet & { dir: string }): Promise<{ file: string; entry: number; png: string }[]> {
  let args = ((ctx.values.texture as string[] | undefined) ?? []).map(parseTextureArg)
  const folder = ctx.values['png-folder'] as string | undefined
  if (folder) {
    const { matchSetFolder } = await import('./png-folder')
    const fromFolder = folderTextures(ctx, folder, set.dir, await matchSetFolder(set, folder))
    args = [...args, ...fromFolder.filter((f) => !args.some((a) => a.file === f.file && a.entry === f.entry))]
  }
  return args
}

export const gfExportCommand: Command = namingSetFolder({
  name: 'gf export',
  summary: 'export a GF set as glTF 2.0 (skinned meshes, materials, shiny variant, every motion)',
  usage: 'gf export SET --out FILE.glb [--force] [--lod high|low] [--no-motions] [--texture FILE:ENTRY=PNG …] [--png-folder PNGDIR] [--json]',
  help: [
    'One skinned mesh per GFMesh; joints are nodes named after the bones, in bone order; inverse bind matrices from the bind pose.',
    'Textures as PNG (top row first, unit 0 transform applied to the UVs; units 1–2 as images named in the material extras);',
    'the 2.bin textures as a KHR_materials_variants variant "shiny" beside "normal"; every motion as an animation named',
    '<file>/<entry> at 30 fps (LINEAR, every frame). One unreadable motion fails the export (exit 1, no file). Written atomically.',
    'Replacements (as `gf replace` takes them, --png-folder matched as there) are written instead of the stored textures, as the',
    'PNG\'s pixels (resampled to the texture size when it differs); the output line says whether the glb holds them.',
    'JSON: {"out","bytes","lod","nodes","meshes","materials","textures","animations","variants","warnings","replaced":[{"file","entry","png"}]}',
  ].join('\n'),
  options: { out: { type: 'string' }, lod: { type: 'string' }, 'no-motions': { type: 'boolean' }, texture: { type: 'string', multiple: true }, 'png-folder': { type: 'string' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const out = requireString(ctx, 'out')
    const l = lod(ctx.values.lod) ?? 'high'
    guardCliOutput(ctx, out, [ctx.positionals[0]])
    const set = await loadSet(ctx.positionals[0]!)
    // the replacement PNGs and their folder are inputs too: --out may never name one
    const pngInputs = () => [ctx.values['png-folder'] as string | undefined, ...((ctx.values.texture as string[] | undefined) ?? []).map((t) => parseTextureArg(t).png)]
    guardCliOutput(ctx, out, [set.dir, ...set.inputs, ...pngInputs()])
    reportSet(ctx, set)
    const reps = await exportReplacements(ctx, set)
    const [{ exportSetGlb }, { replacementPixels, overrideOf }] = await Promise.all([import('./export-set'), import('./replacement-images')]) // PNG only when exporting
    const pixels = await replacementPixels(set, reps.map((r) => ({ file: r.file, entry: r.entry, path: r.png })))
    const { glb, result } = await exportSetGlb(set, { lod: l, motions: ctx.values['no-motions'] !== true, name: setSceneName(set), textureOverride: overrideOf(pixels) })
    for (const w of result.warnings) ctx.err(`warning: ${inSetFolder(set.dir, w)}`)
    ctx.signal.throwIfAborted()
    await fsp.mkdir(path.dirname(path.resolve(out)), { recursive: true })
    guardCliOutput(ctx, out, [set.dir, ...set.inputs, ...pngInputs(), ...reps.map((r) => r.png)]) // a file may have appeared meanwhile
    await writeFileAtomic(path.resolve(out), glb, set.inputs)
    const s = result.scene
    const summary = { out, bytes: glb.byteLength, lod: l, nodes: s.nodes.length, meshes: s.meshes.length, materials: s.materials.length, textures: s.textures.length, animations: s.animations.length, variants: (s.variants ?? []).map((v) => v.name), warnings: result.warnings.length, replaced: reps }
    if (ctx.json) ctx.printJson(summary)
    else {
      ctx.out(`wrote ${out} (${glb.byteLength} bytes): ${summary.meshes} meshes, ${s.skins[0]?.joints.length ?? 0} joints, ${summary.animations} animations${summary.variants.length ? `, variants ${summary.variants.join('/')}` : ''}`)
      ctx.out(reps.length ? `with ${reps.length} replaced texture${reps.length === 1 ? '' : 's'}: ${reps.map((r) => `${path.join(set.dir, r.file)} #${r.entry} ← ${r.png}`).join(', ')}` : 'with the stored textures (no replacement given)')
    }
    return 0
  },
})

/** A manifest text leading with a set path relative to the root → that path below the root as given. */
function asGiven(root: string, text: string): string {
  const i = text.indexOf(': ')
  return path.join(root, i < 0 ? text : text.slice(0, i)) + (i < 0 ? '' : text.slice(i))
}

export const gfExportAllCommand: Command = {
  name: 'gf export-all',
  summary: 'batch: every GF set under a folder → OUTDIR/<set>.glb plus OUTDIR/manifest.json',
  usage: 'gf export-all DIR|GARC --out OUTDIR [--force] [--lod high|low] [--json]',
  help: [
    'Every folder under DIR (recursively, DIR included) holding a 0.bin is a set; each → OUTDIR/<set path relative to DIR>.glb.',
    'A GARC archive: every set N → OUTDIR/<N, 4 digits>.glb (manifest "set" is GARC#N, plus its "name").',
    'OUTDIR appears complete at the end (a cancelled batch leaves nothing); one that holds anything is replaced only with --force,',
    'and it may never be DIR, hold it, or be or lie inside a set (beside the sets inside DIR is fine), nor be the archive.',
    'A broken set is listed in the manifest with its error and the rest go on; the exit code is then 1. Progress on stderr.',
    'manifest.json / JSON: [{"set","glb","models","motions","error"?}]',
  ].join('\n'),
  options: { out: { type: 'string' }, lod: { type: 'string' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const out = requireString(ctx, 'out')
    const root = ctx.positionals[0]!
    const l = lod(ctx.values.lod)
    const bar = ctx.progress('export-all')
    let manifest
    // a file is a GARC archive: every set of it (CLI.md "GF model archive"); its texts already name `GARC#N/k.bin`
    const archive = (await fsp.stat(root).catch(() => null))?.isFile() === true
    const shown = (text: string) => (archive ? text : asGiven(root, text))
    try {
      const batch = { consent: { force: ctx.values.force === true }, lod: l, signal: ctx.signal, progress: (d: number, t: number, s: string) => bar.update(d, t, s), warn: (w: string) => ctx.err(`warning: ${shown(w)}`) }
      if (archive) manifest = await (await import('./export-garc')).exportAllGarcSets(root, out, batch)
      else manifest = await (await import('./export-batch')).exportAllSets(path.resolve(root), out, batch)
    } finally {
      bar.end()
    }
    for (const m of manifest) if (m.error) ctx.err(`modbench gf export-all: error: ${shown(m.error)}`)
    const failed = manifest.filter((m) => m.error).length
    if (ctx.json) ctx.printJson(manifest)
    else ctx.out(`${manifest.length - failed} of ${manifest.length} set${manifest.length === 1 ? '' : 's'} exported to ${out}${failed ? ` (${failed} failed)` : ''}`)
    return failed ? 1 : 0
  },
}

