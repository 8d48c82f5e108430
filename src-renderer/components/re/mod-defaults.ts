/**
 * Defaults of the mod dialog (Save as mod…): a mod replaces one game file, so the mod's name and
 * the zip's name are that file's name without its `.KIND.N` suffix (`ch0_pose.motlist.663` →
 * `ch0_pose`); a game path ending in `/` takes the saved file's own name there.
 */

const baseName = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1)
const dirName = (p: string): string => p.slice(0, Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1)

/** The name of the game file the mod replaces. */
export function gameFileName(gamePath: string, savedPath: string): string {
  const p = gamePath.trim().replace(/\\/g, '/')
  return p === '' || p.endsWith('/') ? baseName(savedPath) : baseName(p)
}

/** A file name without its `.KIND.N` (or `.KIND`) suffix. */
export function stemOf(fileName: string): string {
  return fileName.replace(/\.[A-Za-z][\w-]*(\.\d+)?$/, '') || fileName
}

/** Mod name: the replaced game file's stem. */
export function defaultModName(gamePath: string, savedPath: string): string {
  return stemOf(gameFileName(gamePath, savedPath))
}

/** Zip path: beside the saved file, named after the replaced game file. */
export function defaultZipPath(gamePath: string, savedPath: string): string {
  return `${dirName(savedPath)}${defaultModName(gamePath, savedPath)}.zip`
}

/** The bytes of a `data:…;base64,` URL (the viewport's PNG capture). */
export function dataUrlBytes(url: string): Uint8Array {
  const comma = url.indexOf(',')
  if (!/;base64$/.test(url.slice(0, comma))) throw new Error('the view capture is not a base64 data URL')
  const bin = atob(url.slice(comma + 1))
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/** A view's current picture as PNG bytes (a mod's screenshot), or undefined without a view. */
export async function viewPng(view: { screenshot(): Promise<string> } | null | undefined): Promise<Uint8Array | undefined> {
  return view ? dataUrlBytes(await view.screenshot()) : undefined
}
