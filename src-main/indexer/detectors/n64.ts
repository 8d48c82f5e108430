import type { FileDetector, FolderDetector } from '../detector'

export const n64FileDetectors: FileDetector[] = []
export const n64FolderDetectors: FolderDetector[] = []
