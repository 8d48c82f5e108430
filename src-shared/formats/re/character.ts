/**
 * Which meshes a motlist animates, by the game's folder naming (docs/DECISIONS.md "RE: pairing a
 * motlist with its character's meshes").
 *
 * RE Engine games name a character by an ID of two letters and a number: `pl1000` (RE2 Claire),
 * `em0000` (RE2 zombie), `pl0800` (DMC5), `ch3a8z0` (RE4R: letters and digits mixed). The ID is a
 * folder of both the character's meshes (`natives/x64/sectionroot/character/player/pl1000/pl1050/
 * pl1050.mesh.1808312334`: a part of pl1000) and its motions (`…/chara/pl1000/pl1000.motlist.85`,
 * `natives/x64/animation/player/pl0800/motlist/pl0800_yamato.motlist.85`), or the start of their
 * file names (`em0000_window_em.motlist.85`).
 *
 * Rule: a file's character ID is the first path segment below `natives/` (folders from the top,
 * then the file name; without a `natives` folder, the last four segments) that starts with two
 * letters and 4–5 letters/digits beginning with a digit and holding at least three digits,
 * ending the segment or followed by `_`, `.` or `-`. A motlist pairs with a mesh when both sit in
 * one folder, or when they have the same character ID under the same `natives/<platform>` root.
 */

const TOKEN = /^([a-z]{2})([0-9][0-9a-z]{3,4})(?=$|[_.-])/i

/** The character ID a path segment starts with, or null. */
export function characterToken(segment: string): string | null {
  const m = TOKEN.exec(segment)
  if (!m || (m[2]!.match(/\d/g)?.length ?? 0) < 3) return null
  return (m[1]! + m[2]!).toLowerCase()
}

function segments(p: string): string[] {
  return p.split(/[\\/]+/).filter((s) => s.length > 0)
}

/** Index of the `natives` segment (case-insensitive), or −1. */
function nativesAt(segs: string[]): number {
  for (let i = segs.length - 2; i >= 0; i--) if (segs[i]!.toLowerCase() === 'natives') return i
  return -1
}

/** The character ID of a file (see the file head), or null. */
export function reCharacterId(p: string): string | null {
  const segs = segments(p)
  const n = nativesAt(segs)
  const from = n >= 0 ? n + 1 : Math.max(0, segs.length - 4)
  for (let i = from; i < segs.length; i++) {
    const t = characterToken(segs[i]!)
    if (t) return t
  }
  return null
}

/** `…/natives/<platform>` of a path (lower-cased, `/`-separated), or null. */
export function nativesRoot(p: string): string | null {
  const segs = segments(p)
  const n = nativesAt(segs)
  if (n < 0 || n + 1 >= segs.length - 1) return null
  return segs.slice(0, n + 2).join('/').toLowerCase()
}

function folderOf(p: string): string {
  return segments(p).slice(0, -1).join('/')
}

/** True when `mesh` is a mesh of the character `motlist` animates (the rule of the file head). */
export function motlistPairsWithMesh(motlist: string, mesh: string): boolean {
  if (folderOf(motlist) === folderOf(mesh)) return true
  const id = reCharacterId(motlist)
  if (!id || id !== reCharacterId(mesh)) return false
  const root = nativesRoot(motlist)
  return root !== null && root === nativesRoot(mesh)
}
