import type { AssetDraft, FileDetector, FolderDetector } from '../../plugin/detector'
import { GF_SET_FILES, damagedFileNote, parseGfFile, type GfEntry, type GfFile } from '../../../src-shared/formats/gf/gf-set'
import { FormatError } from '../../../src-shared/binary/errors'
import { hex } from '../../../src-shared/binary/errors'
import { modelOrMotionDraft } from './model-assets'
import { gfGarcDetector } from './garc-detector'

export const gfFileDetectors: FileDetector[] = [gfGarcDetector]

/** What each file of the set holds (spec §1; seed write-up). A UI hint, not a format fact. */
export const GF_FILE_ROLES: Record<string, string> = {
  '0.bin': 'models and shaders',
  '1.bin': 'textures',
  '2.bin': 'shiny textures',
  '3.bin': 'auxiliary textures',
  '4.bin': 'battle motions',
  '5.bin': 'Pokémon Refresh motions',
  '6.bin': 'field motions',
  '7.bin': 'extra motions',
  '8.bin': 'extra data',
}

const SET = new Set<string>(GF_SET_FILES)

/** Set members among `names` (case-insensitive), in set order, as they are spelled on disk. */
function memberNames(names: string[]): string[] {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]))
  return GF_SET_FILES.map((f) => byLower.get(f)).filter((n): n is string => n !== undefined)
}

/** A `gf-entry` row's metadata: the keys present in this order (set one by one: object spreads are a slow path). */
function entryMetadata(e: GfEntry): Record<string, unknown> {
  const m: Record<string, unknown> = { kind: e.kind, offset: e.offset, length: e.length }
  if (e.signature !== null) m.signature = hex(e.signature)
  if (e.note) m.note = e.note
  if (e.error) m.error = e.error
  if (e.children) {
    m.magic = e.nestedMagic
    m.entries = e.children.length
  }
  if (e.bch) m.bch = e.bch.counts
  return m
}

function entryDrafts(f: GfFile, entries: GfEntry[], parentKey: string, keyPrefix: string, out: AssetDraft[]): void {
  for (const e of entries) {
    const key = `${keyPrefix}#${e.index}`
    if (e.kind === 'texture' && e.texture) {
      const t = e.texture
      out.push({
        key,
        parentKey,
        kind: 'gf-texture',
        name: t.name || `${f.file} entry ${e.index}`,
        locator: { file: f.file, entry: e.index },
        metadata: { width: t.width, height: t.height, format: t.format, mipmaps: t.mipmaps, offset: e.offset, length: e.length, dataLength: t.dataLength },
        tags: [t.format, 'texture', `${t.width}x${t.height}`, f.file],
      })
      continue
    }
    const nested = keyPrefix.includes('#')
    const modelOrMotion = nested ? null : modelOrMotionDraft(f, e, key, parentKey)
    if (modelOrMotion) {
      out.push(modelOrMotion)
      continue
    }
    out.push({
      key,
      parentKey,
      kind: 'gf-entry',
      name: `${nested ? keyPrefix.split('#').slice(1).join('.') + '.' : ''}${e.index} ${e.kind}${e.note === 'empty' ? ' (empty)' : ''}`,
      locator: nested ? { file: f.file, entry: Number(keyPrefix.split('#')[1]), nested: e.index } : { file: f.file, entry: e.index },
      metadata: entryMetadata(e),
      tags: [e.kind, f.file],
    })
    if (e.children) entryDrafts(f, e.children, key, key, out)
  }
}

/**
 * A folder holding the GF set files (`0.bin` … `8.bin`; at least `0.bin`, `1.bin` and seven of the
 * nine) is one `gf-set` source: a `gf-file` per file, its entries as `gf-entry` children (kind in
 * metadata; nested packages as children of their entry) and textures as `gf-texture` assets whose
 * name is the texture name, with width, height, format and mipmaps in metadata and locator
 * `{file, entry}`. Texture errors are recorded on the entry, not fatal; a file whose package header
 * is bad is listed as damaged (with the error and what to do) and the set's other files are indexed.
 */
export const gfSetDetector: FolderDetector = {
  id: 'gf-set',
  kind: 'gf-set',
  matchFolder(names) {
    const lower = new Set(names.map((n) => n.toLowerCase()))
    const present = GF_SET_FILES.filter((f) => lower.has(f))
    return lower.has('0.bin') && lower.has('1.bin') && present.length >= 7
  },
  members: memberNames,
  enumerate(files) {
    const assets: AssetDraft[] = []
    const warnings: string[] = []
    const damaged: FormatError[] = []
    const present: string[] = []
    let textures = 0
    for (const [diskName, bytes] of files) {
      const name = diskName.toLowerCase()
      if (!SET.has(name)) continue
      present.push(name)
      let f: GfFile
      try {
        f = parseGfFile(name, bytes, { lenient: true })
      } catch (err) {
        // a damaged file is listed with what is wrong; the set's other files stay indexed
        if (!(err instanceof FormatError)) throw err
        const note = damagedFileNote(name, err)
        warnings.push(note)
        damaged.push(err)
        assets.push({ key: name, kind: 'gf-file', name: `${name} (damaged)`, locator: { file: name }, metadata: { size: bytes.byteLength, role: GF_FILE_ROLES[name], error: note }, tags: [GF_FILE_ROLES[name] ?? '', 'damaged'] })
        continue
      }
      warnings.push(...f.warnings)
      const counts: Record<string, number> = {}
      for (const e of f.entries) counts[e.kind] = (counts[e.kind] ?? 0) + 1
      textures += f.entries.filter((e) => e.kind === 'texture' && e.texture).length
      assets.push({
        key: name,
        kind: 'gf-file',
        name,
        locator: { file: name },
        metadata: { magic: f.magic, size: bytes.byteLength, entries: f.entries.length, role: GF_FILE_ROLES[name], kinds: counts },
        tags: [GF_FILE_ROLES[name] ?? '', f.magic],
      })
      entryDrafts(f, f.entries, name, name, assets)
    }
    const missing = GF_SET_FILES.filter((f) => !present.includes(f))
    return { kind: 'gf-set', assets, metadata: { files: present, missing, textures, warnings: warnings.slice(0, 50), warningCount: warnings.length }, ...(damaged.length ? { damaged } : {}) }
  },
  explainPartial,
}

/** A set needs 0.bin, 1.bin and seven of the nine (matchFolder above), in words. */
const SET_RULE = 'a GF set folder holds 0.bin, 1.bin and at least seven of 0.bin–8.bin'

/**
 * An opened folder holding some set files but no set (issue 25: a folder of only a bad `0.bin` said
 * nothing useful): the first damaged member with its structure and offset, or the missing files.
 */
async function explainPartial(names: string[], read: (name: string) => Promise<Uint8Array>): Promise<{ file: string; message: string } | null> {
  const here = memberNames(names)
  if (!here.length) return null
  for (const n of here) {
    try {
      parseGfFile(n.toLowerCase(), await read(n))
    } catch (err) {
      if (!(err instanceof FormatError)) throw err
      return { file: n, message: `${n} is damaged: its ${err.structure ?? 'structure'} at offset ${hex(err.offset ?? 0)} is wrong (${err.detail}), and no GF set was found here (${SET_RULE}). Replace ${n} with an intact copy from the game's files, put it beside the set's other files, and open that folder.` }
    }
  }
  const missing = GF_SET_FILES.filter((f) => !here.some((n) => n.toLowerCase() === f))
  return { file: here[0]!, message: `${here.join(', ')} ${here.length === 1 ? 'is' : 'are'} part of a GF set, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (${SET_RULE}). Copy the set's other files beside ${here[0]} and open the folder again.` }
}

export const gfFolderDetectors: FolderDetector[] = [gfSetDetector]
