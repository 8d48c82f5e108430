import type { Command } from '../../plugin/command'
import { nodeDomains } from '../../plugin/registry'
import { catalogCommands } from './catalog'
import { exportCommands } from './export'

/** The platform's own commands (catalog, export): not a game's. */
function platformCommands(): Command[] {
  return [...catalogCommands, ...exportCommands]
}

/**
 * Every command of `modbench`: the platform's, then each registered domain's (the registry,
 * src-main/plugin/registry.ts, filled by the entry point from the list) in list order. Each domain's command module is imported only here, on demand.
 */
export async function allCommands(): Promise<Command[]> {
  const groups = await Promise.all(nodeDomains().map((d) => d.cli?.load() ?? []))
  return [...platformCommands(), ...groups.flat()]
}

/**
 * The commands that can match `first` (the first command word): a domain whose CLI group is
 * `first` loads only its own command module; any other word needs the full table (platform
 * commands, the top-level help, "unknown command").
 */
export async function commandsFor(first: string | undefined): Promise<Command[]> {
  const owner = nodeDomains().find((d) => first !== undefined && d.cli?.groups.includes(first))
  if (!owner?.cli) return allCommands()
  return [...(await owner.cli.load())]
}
