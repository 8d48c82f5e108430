/** What the `snap` commands share (CLI.md "Pokémon Snap ROM"): the `--stage` option, opening the ROM, warnings on stderr. */
import type { CommandContext } from '../../plugin/command'
import { UsageError, requireString } from '../../plugin/command'
import { loadSnapRom } from './rom-file'
import { STAGES, stageByName } from '../../../src-shared/formats/snap/stages'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'

export const STAGE_NAMES = STAGES.map((s) => s.name).join(' | ')

/** `--stage NAME` (required), as the stage's canonical name. */
export function stageOption(ctx: CommandContext): string {
  const name = requireString(ctx, 'stage')
  const s = stageByName(name)
  if (!s) throw new UsageError(`--stage must be one of ${STAGE_NAMES}, got ${JSON.stringify(name)}`)
  return s.name
}

/** The ROM positional, with a warning for an unverified image or a header that does not name the game. */
export async function openSnapRomArg(ctx: CommandContext): Promise<N64Rom> {
  const rom = await loadSnapRom(ctx.positionals[0]!)
  if (rom.headerMismatch) ctx.err(`warning: ${rom.file}: header name ${JSON.stringify(rom.header.name)} does not name Pokémon Snap, but the overlay table has its layout; reading it as Pokémon Snap`)
  if (!rom.verified) ctx.err(`warning: ${rom.file}: MD5 ${rom.md5} is not Pokémon Snap (USA 1.0); opened with the US 1.0 layout (unverified)`)
  return rom
}

/** The first 20 warnings on stderr, then how many more. */
export function warnAll(ctx: CommandContext, warnings: string[]): void {
  for (const w of warnings.slice(0, 20)) ctx.err(`warning: ${w}`)
  if (warnings.length > 20) ctx.err(`warning: … and ${warnings.length - 20} more`)
}
