/**
 * What every `gf` command over one SET shares: its help line, its warnings and its errors, all
 * naming a set member with its folder as the user gave it (`set1/1.bin: …`, never a bare `1.bin`,
 * and a relative folder stays relative).
 */
import * as path from 'node:path'
import { UsageError, type Command, type CommandContext } from '../../plugin/command'
import type { SetFolderMatch } from './png-folder'
import type { GfSet } from '../../../src-shared/formats/gf/gf-set'
import { inSetFolder, setFolderError } from './set-folder'

export const SET_HELP = 'SET is a folder holding the nine files 0.bin … 8.bin, or GARC#N: set N of a GARC archive (missing ones are reported on stderr, not fatal).'

/** `set1/3.bin, set1/8.bin` for the members missing from `dir`. */
export function missingMembers(dir: string, missing: readonly string[]): string {
  return missing.map((m) => path.join(dir, m)).join(', ')
}

/** The set's missing members and parse warnings on stderr, each naming the folder. */
export function reportSet(ctx: CommandContext, set: GfSet & { dir: string }): void {
  if (set.missing.length) ctx.err(`warning: ${missingMembers(set.dir, set.missing)} missing from the set`)
  for (const w of set.warnings) ctx.err(`warning: ${inSetFolder(set.dir, w)}`)
}

/** A set command's errors name the set folder with the file (`SET/1.bin: …`, not `1.bin: …`). */
export function namingSetFolder(c: Command): Command {
  return {
    ...c,
    async run(ctx) {
      try {
        return await c.run(ctx)
      } catch (e) {
        throw setFolderError(ctx.positionals[0]!, e)
      }
    },
  }
}

/** `FILE:ENTRY=PNG` → parts; FILE may be `1.bin` or `1`. */
export function parseTextureArg(arg: string): { file: string; entry: number; png: string } {
  const m = /^([^:=]+):(\d+)=(.+)$/.exec(arg)
  if (!m) throw new UsageError(`--texture takes FILE:ENTRY=PNG (e.g. 1.bin:0=body.png), got ${JSON.stringify(arg)}`)
  const base = m[1]!.split(/[\\/]/).pop()!
  const file = /\.bin$/i.test(base) ? base.toLowerCase() : `${base}.bin`
  return { file, entry: Number(m[2]), png: m[3]! }
}

/** The folder's matches as `--texture` arguments (paths joined with the folder as given), after printing what matched what. */
export function folderTextures(ctx: CommandContext, folder: string, dir: string, m: SetFolderMatch): { file: string; entry: number; png: string }[] {
  const at = (png: string) => path.join(folder, ...png.split('/'))
  if (!ctx.json) for (const x of m.matched) ctx.out(`${path.join(dir, x.file)} #${x.entry} ${x.name} ← ${at(x.png)}`)
  for (const x of m.wrongSize) ctx.err(`warning: ${at(x.png)} is ${x.width}×${x.height}; ${path.join(dir, x.file)} #${x.entry} ${x.name} is ${x.expectedWidth}×${x.expectedHeight} (not used)`)
  for (const x of m.ambiguous) ctx.err(`warning: ${at(x.png)} fits ${x.candidates.map((c) => path.join(dir, c)).join(', ')}; name it <entry>_<name>.png in a folder named after its file (not used)`)
  for (const x of m.unreadable) ctx.err(`warning: ${x.error} (not used)`) // the error names the PNG as given
  for (const x of m.unmatched) ctx.err(`warning: ${at(x)} names no texture of ${dir}, or one a more specific PNG took (not used)`)
  if (!m.matched.length) throw new Error(`${folder}: no PNG matched a texture of ${dir} by name (<name>.png, <entry>_<name>.png, <name>_shiny.png, or in a 1/ 2/ 3/ folder); nothing written`)
  return m.matched.map((x) => ({ file: x.file, entry: x.entry, png: at(x.png) }))
}
