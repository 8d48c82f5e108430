import type { Command } from '../command'
import { catalogCommands } from './catalog'
import { exportCommands } from './export'
import { gfCommands } from './gf'
import { gfModelCommands } from '../../domains/gf/model-cli'
import { reCommands } from './re'
import { snapCommands } from './snap'
import { stadiumCommands } from './stadium'

/**
 * Every command of `modbench`. Each domain keeps its commands in its own file and is listed here.
 */
export function allCommands(): Command[] {
  return [...catalogCommands, ...exportCommands, ...gfCommands, ...gfModelCommands, ...reCommands, ...snapCommands, ...stadiumCommands]
}
