import type { FileDetector, FolderDetector } from '../detector'

export const reFileDetectors: FileDetector[] = []
export const reFolderDetectors: FolderDetector[] = []
