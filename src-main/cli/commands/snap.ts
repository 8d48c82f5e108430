import type { Command } from '../command'

/** `modbench snap …` commands (see ../shared/CLI.md). */
export const snapCommands: Command[] = []
