/**
 * A file's path below the `romfs` folder of a 3DS dump (`…/romfs/a/0/9/4` → `a/0/9/4`), with `/`
 * separators, or null when no folder of the path is named `romfs` (spec gf-packages §19.8:
 * LayeredFS replaces `romfs/<path>`). Either separator is accepted; the nearest `romfs` wins.
 */
export function romfsRelative(file: string): string | null {
  const parts = file.split(/[\\/]+/).filter(Boolean)
  const at = parts.lastIndexOf('romfs', parts.length - 2)
  return at >= 0 ? parts.slice(at + 1).join('/') : null
}
