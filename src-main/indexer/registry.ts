import type { DetectInput, FileDetector, FolderDetector } from './detector'
import { n64Detector } from './detectors/n64'
import { gfFileDetectors, gfFolderDetectors } from './detectors/gf'
import { reFileDetectors, reFolderDetectors } from './detectors/re'

/** Every file detector, most specific first. */
export function fileDetectors(): FileDetector[] {
  return [n64Detector, ...gfFileDetectors, ...reFileDetectors]
}

export function folderDetectors(): FolderDetector[] {
  return [...gfFolderDetectors, ...reFolderDetectors]
}

/** Content first (magic bytes), extension second. */
export function detectFile(input: DetectInput, detectors = fileDetectors()): FileDetector | null {
  for (const d of detectors) if (d.matchContent?.(input)) return d
  for (const d of detectors) if (d.extensions?.test(input.name)) return d
  return null
}
