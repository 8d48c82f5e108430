import type { Command } from '../command'

/** `modbench stadium …` commands (see ../shared/CLI.md). */
export const stadiumCommands: Command[] = []
