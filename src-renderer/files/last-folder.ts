/**
 * The folders browser mode's file dialog answered in lately (newest first, remembered across
 * sessions): the dialog starts in the first when the view proposes nothing, and offers them all
 * as places (the main side checks that each still exists).
 */
const KEY = 'modbench-fb-recent'
const MAX = 8

export function lastFolders(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

export function rememberFolder(folder: string): void {
  if (!folder) return
  localStorage.setItem(KEY, JSON.stringify([folder, ...lastFolders().filter((f) => f !== folder)].slice(0, MAX)))
}
