/** The GF model/motion commands of issue 11, for the GF domain manifest (or today's command table). */
import type { Command } from '../../plugin/command'
import { gfExportAllCommand, gfExportCommand } from './export-commands'
import { gfModelsCommand, gfMotionsCommand } from './model-commands'

export const gfModelCommands: Command[] = [gfModelsCommand, gfMotionsCommand, gfExportCommand, gfExportAllCommand]
