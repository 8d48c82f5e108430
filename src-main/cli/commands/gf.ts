import type { Command } from '../command'

/** `modbench gf …` commands (see ../shared/CLI.md). */
export const gfCommands: Command[] = []
