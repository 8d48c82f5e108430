import type { Command } from '../command'

/** `modbench export …` commands (see ../shared/CLI.md). */
export const exportCommands: Command[] = []
