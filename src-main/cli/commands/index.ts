import type { Command } from '../command'
import { catalogCommands } from './catalog'
import { exportCommands } from './export'
import { gfCommands } from './gf'
import { reCommands } from './re'
import { snapCommands } from './snap'
import { stadiumCommands } from './stadium'
// TEMPORARY (branch snapactors): until the domains branch lands, then wired in src-main/domains/snap/index.ts
import { actorCommands } from '../../domains/snap/actor-commands'

/**
 * Every command of `modbench`. Each domain keeps its commands in its own file and is listed here.
 */
export function allCommands(): Command[] {
  return [...catalogCommands, ...exportCommands, ...gfCommands, ...reCommands, ...snapCommands, ...actorCommands, ...stadiumCommands]
}
