import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import type { DetectInput } from '../plugin/detector'
import { gzipHead, isGzip, readHead } from './read-source'
import { detectFile, fileDetectors, folderDetectors } from './registry'

/**
 * The kind the indexer would give a file, from its name and first bytes (a `.gz` by its inner
 * name and unpacked head), without enumerating it: the file browser's "detected kind". Unreadable
 * files are simply not claimed (null).
 */
export async function detectFileKind(file: string, size: number): Promise<string | null> {
  try {
    let head = await readHead(file)
    let name = path.basename(file).toLowerCase()
    if (isGzip(head, name)) {
      name = name.slice(0, -3)
      head = await gzipHead(file)
    }
    const input: DetectInput = { path: file, name, size, head }
    return detectFile(input, fileDetectors())?.kind ?? null
  } catch {
    return null
  }
}

/** The set kind a folder forms, from its file names (a GF `0.bin`–`8.bin` set), or null. */
export async function detectFolderKind(dir: string): Promise<string | null> {
  try {
    const names = (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort()
    return folderDetectors().find((d) => d.matchFolder(names))?.kind ?? null
  } catch {
    return null
  }
}
