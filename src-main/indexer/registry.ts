import type { DetectInput, FileDetector, FolderDetector } from './detector'
import { nodeDomains } from '../domains/index'

/** Every file detector of the registered domains, in list order (the N64 ROM detector first). */
export function fileDetectors(): FileDetector[] {
  return nodeDomains().flatMap((d) => d.fileDetectors ?? [])
}

export function folderDetectors(): FolderDetector[] {
  return nodeDomains().flatMap((d) => d.folderDetectors ?? [])
}

/** Content first (magic bytes), extension second. */
export function detectFile(input: DetectInput, detectors = fileDetectors()): FileDetector | null {
  for (const d of detectors) if (d.matchContent?.(input)) return d
  for (const d of detectors) if (d.extensions?.test(input.name)) return d
  return null
}
