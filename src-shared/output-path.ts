/**
 * Where a save proposes to write by default (a pure helper: no file system, works on either
 * separator). The rule of issue 14: a default output is never inside an input folder (a GF set's
 * folder: the set is read as a whole, and a new folder inside it would be swept up by the next
 * index of that folder) and never an input file (the pose editor's template).
 */

export interface DefaultOutputRequest {
  /** The input the output belongs beside (a file or a folder): the output goes in its folder. */
  beside: string
  /** The proposed file or folder name (e.g. `pose.motlist.663`, `set-repacked`). */
  name: string
  /** Folders never to write inside (the input set's folder). */
  inputFolders?: readonly string[]
  /** Files never to propose (the template, the pose file). */
  inputFiles?: readonly string[]
  /** Paths already taken (existing files the caller knows of): skipped like input files. */
  taken?: (p: string) => boolean
}

function sepOf(p: string): string {
  return p.includes('\\') && !p.includes('/') ? '\\' : '/'
}

function trimEnd(p: string): string {
  const t = p.replace(/[\\/]+$/, '')
  return t || p.slice(0, 1)
}

/** The folder a path is in ('' when it has none). */
export function parentOf(p: string): string {
  const t = trimEnd(p)
  const cut = Math.max(t.lastIndexOf('/'), t.lastIndexOf('\\'))
  if (cut < 0) return ''
  return cut === 0 ? t.slice(0, 1) : t.slice(0, cut)
}

/** The last part of a path. */
export function baseOf(p: string): string {
  const t = trimEnd(p)
  return t.slice(Math.max(t.lastIndexOf('/'), t.lastIndexOf('\\')) + 1)
}

/** The same path spelled one way (separators, trailing separator, case of a Windows drive). */
function norm(p: string): string {
  return trimEnd(p.replace(/\\/g, '/')).replace(/^([a-z]):/, (_m, d: string) => `${d.toUpperCase()}:`)
}

function isInside(p: string, folder: string): boolean {
  const a = norm(p)
  const f = norm(folder)
  return a === f || a.startsWith(f.endsWith('/') ? f : `${f}/`)
}

function join(dir: string, name: string, sep: string): string {
  if (!dir) return name
  return dir.endsWith('/') || dir.endsWith('\\') ? dir + name : dir + sep + name
}

/** `name` with `-n` before its extensions: `pose.motlist.663` → `pose-2.motlist.663`. */
export function numbered(name: string, n: number): string {
  const dot = name.indexOf('.', 1)
  return dot < 0 ? `${name}-${n}` : `${name.slice(0, dot)}-${n}${name.slice(dot)}`
}

/** The default output path: beside `beside`, outside every input folder, never an input file. */
export function defaultOutputPath(req: DefaultOutputRequest): string {
  const sep = sepOf(req.beside)
  let dir = parentOf(req.beside)
  // Climb out of every input folder the proposed folder is in (nested ones too).
  for (let guard = 0; guard < 64; guard++) {
    const holder = (req.inputFolders ?? []).find((f) => dir && isInside(dir, f))
    if (!holder) break
    dir = parentOf(holder)
  }
  const blocked = (p: string) => (req.inputFiles ?? []).some((f) => norm(f) === norm(p)) || (req.inputFolders ?? []).some((f) => isInside(p, f)) || (req.taken?.(p) ?? false)
  let out = join(dir, req.name, sep)
  for (let n = 2; blocked(out) && n < 10_000; n++) out = join(dir, numbered(req.name, n), sep)
  return out
}
