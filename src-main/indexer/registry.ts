import type { DetectInput, FileDetector, FolderDetector } from '../plugin/detector'
import { sourceKindInfo } from '../../src-shared/domains'
import { nodeDomains } from '../plugin/registry'

/** Every file detector of the registered domains, in list order (the N64 ROM detector first). */
export function fileDetectors(): FileDetector<string>[] {
  return nodeDomains().flatMap((d) => d.fileDetectors ?? [])
}

export function folderDetectors(): FolderDetector<string>[] {
  return nodeDomains().flatMap((d) => d.folderDetectors ?? [])
}

/** Content first (magic bytes), extension second. */
export function detectFile(input: DetectInput, detectors = fileDetectors()): FileDetector<string> | null {
  for (const d of detectors) if (d.matchContent?.(input)) return d
  for (const d of detectors) if (d.extensions?.test(input.name)) return d
  return null
}

/** The kinds of source the detectors recognise, in words (for "not a kind of file Modbench recognises"). */
export function recognisedKinds(): string {
  const kinds = [...fileDetectors(), ...folderDetectors()].map((d) => d.kind)
  return [...new Set(kinds.map((k) => sourceKindInfo(k)?.label ?? k))].join(', ')
}
