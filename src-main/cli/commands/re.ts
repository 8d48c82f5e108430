import type { Command } from '../command'

/** `modbench re …` commands (see ../shared/CLI.md). */
export const reCommands: Command[] = []
