import type { GfLod } from '../../../src-shared/formats/gf/set-models'

/** `--lod high|low` (CLI.md: default high): undefined when absent, 'bad' for anything else. */
export function lodOption(v: unknown): GfLod | undefined | 'bad' {
  if (v === undefined) return undefined
  return v === 'high' || v === 'low' ? v : 'bad'
}
