import type { FileDetector, FolderDetector } from '../detector'

export const gfFileDetectors: FileDetector[] = []
export const gfFolderDetectors: FolderDetector[] = []
