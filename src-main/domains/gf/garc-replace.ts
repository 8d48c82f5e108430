/**
 * `gf replace GARC#N …` (CLI.md "GF model archive"): `gf replace` on set N of an archive, the
 * repacked set written straight into a new archive as `gf garc pack` writes it.
 */
import type { CommandContext } from '../../plugin/command'
import { archiveOutput } from './garc-commands'
import { GarcFile } from './garc-file'
import { setChanges, writeGarcFile } from './garc-pack'
import { guardOutput } from './output-guard'
import { pngReplacements, replacedLine, replacedRows } from './replace-args'
import { repackSetInMemory, sha256 } from './repack'
import { loadSet } from './set-folder'
import { missingMembers } from './set-cli'

export async function replaceInArchive(ctx: CommandContext, src: { file: string; set: number }, args: { file: string; entry: number; png: string }[], effort: 'fast' | 'normal' | 'high'): Promise<number> {
  const arg = ctx.positionals[0]!
  const { out, flag } = archiveOutput(ctx, src.file)
  const pngFolder = ctx.values['png-folder'] as string | undefined // its PNGs are inputs too
  await guardOutput(out, [src.file, ...(pngFolder ? [pngFolder] : []), ...args.map((a) => a.png)], ctx.values.force === true, flag)
  const set = await loadSet(arg, { lenient: true })
  if (set.missing.length) ctx.err(`warning: ${missingMembers(arg, set.missing)} empty in the archive`)
  const reps = await pngReplacements(args)
  const bar = ctx.progress('repack')
  const files = new Map<string, { changed: boolean; size: number; sha256: string }>()
  let result
  try {
    result = await repackSetInMemory(set, reps, { progress: (d, t, s) => bar.update(d, t, s), signal: ctx.signal, etc1Effort: effort })
    await GarcFile.with(src.file, async (g) => {
      const changes = await setChanges(g, src.set, result!.files)
      for (const [name, bytes] of result!.files) {
        const index = src.set * 9 + Number(name[0])
        files.set(name, { changed: changes.has(index), size: bytes.byteLength, sha256: sha256(bytes) })
      }
      await writeGarcFile(g, changes, out, { signal: ctx.signal, progress: (d, t, s) => bar.update(d, t, s) })
    })
  } finally {
    bar.end()
  }
  const replaced = replacedRows(result.report)
  if (ctx.json) {
    ctx.printJson({ out, set: src.set, files: [...files].map(([file, f]) => ({ file, ...f })), replaced })
    return 0
  }
  for (const r of replaced) ctx.out(replacedLine(r, arg))
  ctx.out(`wrote ${out} (set ${src.set}: ${[...files.values()].filter((f) => f.changed).length} file(s) changed)`)
  return 0
}
