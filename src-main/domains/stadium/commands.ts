import type { Command, CommandContext } from '../../plugin/command'
import { UsageError, forceOption, guardCliOutput, requireString } from '../../plugin/command'

/** The ROM access (and glTF-Transform behind it) loads when a command runs, not when the CLI starts. */
const romFile = () => import('./rom-file')

/** The ROM's warnings, each naming the ROM as given (as Snap's do). */
function warnRom(ctx: CommandContext, sr: { file: string; warnings: string[] }): void {
  for (const w of sr.warnings) ctx.err(`warning: ${w.startsWith(sr.file) ? w : `${sr.file}: ${w}`}`)
}

/**
 * Models that failed, one stderr line each naming the ROM and the model file, then a count: the
 * batch convention of CLI.md (`gf export-all`): the rest go on, exit 1 when any failed.
 */
function reportFailed(ctx: CommandContext, command: string, rom: string, items: readonly { file: number; error?: string }[]): number {
  const bad = items.filter((r) => r.error !== undefined)
  // the readers' messages name the ROM and the model file already (`ROM [model file 1]: …`)
  for (const r of bad) ctx.err(`modbench ${command}: error: ${r.error!.startsWith(rom) ? r.error : `${rom}: model file ${r.file}: ${r.error}`}`)
  if (bad.length) ctx.err(`${bad.length} of ${items.length} models failed (listed above)`)
  return bad.length
}

/** `modbench stadium …` commands (see ../shared/CLI.md, "Pokémon Stadium ROM"). */

const list: Command = {
  name: 'stadium list',
  summary: 'list the battle models of a Pokémon Stadium ROM (species, bones, animations, eye animations)',
  usage: 'stadium list ROM [--json]',
  help: 'ROM is a Pokémon Stadium (US 1.0) image in .z64, .v64 or .n64 byte order; other images whose header names Pokémon Stadium open with the US layout (unverified).\nA model that cannot be read is listed with its "error" (counts 0) and the rest go on; exit 1 when any failed.\nJSON: [{"file","species","name","slug","bones","animations","textureAnimations","error"?}]',
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const { readStadiumRom, listModels } = await romFile()
    const sr = await readStadiumRom(ctx.positionals[0]!)
    warnRom(ctx, sr)
    const rows = listModels(sr, ctx.signal)
    const failed = reportFailed(ctx, 'stadium list', sr.file, rows)
    if (ctx.json) {
      ctx.printJson(rows)
      return failed ? 1 : 0
    }
    ctx.out(`${sr.file}: ${rows.length} models${sr.verified ? ' (US 1.0, verified)' : ' (unverified image)'}`)
    for (const r of rows) {
      if (r.error) ctx.out(`${String(r.file).padStart(3)}  ${r.name}: ${r.error}`)
      else ctx.out(`${String(r.file).padStart(3)}  ${r.slug.padEnd(24)} ${r.name.padEnd(16)} bones ${String(r.bones).padStart(3)}  animations ${String(r.animations).padStart(3)}  eye animations ${r.textureAnimations}`)
    }
    return failed ? 1 : 0
  },
}

const exportCmd: Command = {
  name: 'stadium export',
  summary: 'export every model of a Pokémon Stadium ROM to glTF (DIR/glb/NNN_name.glb, DIR/manifest.json, DIR/moves.json)',
  usage: 'stadium export ROM --out DIR [--force] [--only N[,N…]] [--step] [--pipeline-parity] [--no-textures] [--validate] [--json]',
  help: [
    'Writes the folder DIR atomically (built aside, renamed in; an existing DIR that holds anything only with --force):',
    'glb/NNN_name.glb for every model,',
    'textures/NNN_name/*.png, manifest.json and moves.json. Progress goes to stderr; Ctrl+C cancels and leaves nothing.',
    'A model that cannot be read is left out and listed in manifest.json "failed" with its error; the others are',
    'written and the exit code is 1. When every model fails nothing is written.',
    '--only      export only these archive file indices (0-based, comma separated)',
    '--step      STEP interpolation (bit-exact: the game samples whole frames); default LINEAR',
    '--pipeline-parity  run display lists in traversal order with the seed pipeline\'s per-DL geometry-mode reset',
    '--validate  check each glb with the Khronos glTF validator (errors fail the export)',
    'JSON: {"out","models","files":[…],"failed":[{"file","sourceFile","error"}]}',
  ].join('\n'),
  options: { out: { type: 'string' }, only: { type: 'string' }, step: { type: 'boolean' }, 'pipeline-parity': { type: 'boolean' }, 'no-textures': { type: 'boolean' }, validate: { type: 'boolean' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const out = requireString(ctx, 'out')
    let only: number[] | undefined
    if (typeof ctx.values.only === 'string') {
      only = ctx.values.only.split(',').map((s) => {
        if (!/^\d+$/.test(s.trim())) throw new UsageError(`--only takes file indices like 0,24,151; got ${JSON.stringify(s)}`)
        return Number(s.trim())
      })
    }
    guardCliOutput(ctx, out, [ctx.positionals[0]], { kind: 'folder' })
    const { readStadiumRom, exportStadium } = await romFile()
    const sr = await readStadiumRom(ctx.positionals[0]!)
    warnRom(ctx, sr)
    const progress = ctx.progress('stadium export')
    let validate: ((glb: Uint8Array, name: string) => Promise<void>) | undefined
    if (ctx.values.validate) {
      const { validateBytes } = (await import('gltf-validator')) as { validateBytes(b: Uint8Array, o?: unknown): Promise<{ issues: { numErrors: number; messages: { code: string; message: string; pointer?: string; severity: number }[] } }> }
      validate = async (glb, name) => {
        const r = await validateBytes(glb, { maxIssues: 20 })
        if (r.issues.numErrors > 0) {
          const first = r.issues.messages.filter((m) => m.severity === 0).slice(0, 3).map((m) => `${m.code} ${m.message} ${m.pointer ?? ''}`)
          throw new Error(`${name}: glTF validator reports ${r.issues.numErrors} error(s): ${first.join('; ')}`)
        }
      }
    }
    const res = await exportStadium(sr, out, {
      consent: { force: ctx.values.force === true },
      signal: ctx.signal,
      only,
      interpolation: ctx.values.step ? 'STEP' : 'LINEAR',
      pipelineParity: ctx.values['pipeline-parity'] === true,
      textures: ctx.values['no-textures'] !== true,
      validate,
      onProgress: (d, t, detail) => progress.update(d, t, detail),
    })
    progress.end()
    const failed = reportFailed(ctx, 'stadium export', sr.file, res.failed)
    if (ctx.json) ctx.printJson({ out, models: res.models, files: res.files, failed: res.failed })
    else ctx.out(`wrote ${res.models} models to ${out} (${res.files.length} files)${failed ? `; ${failed} failed (manifest.json "failed")` : ''}`)
    return failed ? 1 : 0
  },
}

const diagnoseCmd: Command = {
  name: 'stadium diagnose',
  summary: 'histograms to check on a real ROM: joint rawFlags, PERS-SZP patches and tails, geo opcodes, render layers, bucket-order differences',
  usage: 'stadium diagnose ROM [--json]',
  help: 'JSON: {"source","romMd5","verified","archiveId","files","rawFlags","patchCounts","tailSizes","geoLayoutCounts","geoOpcodes","renderLayers","orderDifferences","crossBucketTriangles","models":[…]}',
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const { readStadiumRom, diagnose } = await romFile()
    const sr = await readStadiumRom(ctx.positionals[0]!)
    warnRom(ctx, sr)
    const d = diagnose(sr, ctx.signal)
    if (ctx.json) ctx.printJson(d)
    else for (const [k, v] of Object.entries(d)) if (k !== 'models') ctx.out(`${k}: ${JSON.stringify(v)}`)
    return 0
  },
}

export const stadiumCommands: Command[] = [list, exportCmd, diagnoseCmd]
