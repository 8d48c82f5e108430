import type { Command } from '../../plugin/command'
import { UsageError, forceOption, guardCliOutput, requireString } from '../../plugin/command'
import { garcSetSource, inSetFolder, loadSet } from './set-folder'
import { SET_HELP, folderTextures, namingSetFolder, parseTextureArg, reportSet } from './set-cli'
import type { SetFolderMatch } from './png-folder'

/** PNG libraries and the repacker load when a command that writes or reads PNGs runs. */
const repack = () => import('./repack')
import { listTextures, type GfEntry } from '../../../src-shared/formats/gf/gf-set'
import { hex } from '../../../src-shared/binary/errors'

/** An entry's JSON; its `error` text names the set member with `dir` (`SET/1.bin: …`). */
function entryJson(e: GfEntry, dir: string): Record<string, unknown> {
  const o: Record<string, unknown> = { index: e.index, offset: e.offset, length: e.length, kind: e.kind }
  if (e.signature !== null) o.signature = hex(e.signature)
  if (e.note) o.note = e.note
  if (e.texture) o.name = e.texture.name
  if (e.error) o.error = inSetFolder(dir, e.error)
  if (e.bch) o.bch = Object.fromEntries(Object.entries(e.bch.counts).filter(([, n]) => n > 0))
  if (e.children) {
    o.magic = e.nestedMagic
    o.entries = e.children.map((c) => entryJson(c, dir))
  }
  return o
}

const info: Command = {
  name: 'gf info',
  summary: 'list the files of a GF set, their package magic and entries (offset, length, kind)',
  usage: 'gf info SET [--json]',
  help: `${SET_HELP}\nJSON: {"files":[{"file","magic","size","entries":[{"index","offset","length","kind"}]}],"missing":[…]}\nkind: model | texture | motion | bch | package | unknown; offsets are absolute in the file.\nA texture entry whose header cannot be read is listed with an "error" key and a warning; a bad package is an error.`,
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    // Lenient: `info` lists the package structure (spec §2.2) and classifies entries by signature
    // (§3); a texture entry whose header cannot be read (too short, unknown format id, data past
    // the entry) is still a `texture` entry, reported on stderr with file, entry and offset and
    // in the entry's `error` key (§9.2: "keep the entry opaque"). Package errors stay fatal.
    const set = await loadSet(ctx.positionals[0]!, { lenient: true })
    reportSet(ctx, set)
    if (ctx.json) {
      ctx.printJson({ files: set.files.map((f) => ({ file: f.file, magic: f.magic, size: f.bytes.byteLength, entries: f.entries.map((e) => entryJson(e, set.dir)) })), missing: set.missing })
      return 0
    }
    for (const f of set.files) {
      ctx.out(`${f.file}  ${f.magic}  ${f.entries.length} entries  ${f.bytes.byteLength} bytes`)
      const line = (e: GfEntry, indent: string) => {
        const bch = e.bch ? `  (${Object.entries(e.bch.counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ') || 'empty'})` : ''
        ctx.out(`${indent}${String(e.index).padStart(3)}  ${hex(e.offset).padStart(9)}  ${String(e.length).padStart(8)}  ${e.kind}${e.texture ? `  ${e.texture.name}` : ''}${bch}${e.note ? `  (${e.note})` : ''}`)
        for (const c of e.children ?? []) line(c, indent + '     ')
      }
      for (const e of f.entries) line(e, '  ')
    }
    if (set.missing.length) ctx.out(`missing: ${set.missing.join(', ')}`)
    return 0
  },
}

const textures: Command = {
  name: 'gf textures',
  summary: 'list every texture of a GF set (file, entry, name, size, format, mip levels)',
  usage: 'gf textures SET [--json]',
  help: `${SET_HELP}\nJSON: [{"file","entry","name","width","height","format","mipmaps"}]; format is one of RGBA8 RGB8 RGBA5551 RGB565 RGBA4 LA8 HILO8 L8 A8 LA4 L4 A4 ETC1 ETC1A4.`,
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const set = await loadSet(ctx.positionals[0]!)
    reportSet(ctx, set)
    // `mipmaps` is the header's MipmapSize (+0x6E) as stored (levels, 1 = none; spec §9.1, §16 item 4).
    const list = listTextures(set).map((t) => ({ file: t.file, entry: t.entry, name: t.header.name, width: t.header.width, height: t.header.height, format: t.header.format, mipmaps: t.header.mipmaps }))
    if (ctx.json) {
      ctx.printJson(list)
      return 0
    }
    for (const t of list) ctx.out(`${t.file}  ${String(t.entry).padStart(3)}  ${`${t.width}×${t.height}`.padEnd(9)}  ${t.format.padEnd(8)}  mips ${t.mipmaps}  ${t.name}`)
    ctx.out(`${list.length} texture${list.length === 1 ? '' : 's'}`)
    return 0
  },
}

const extract: Command = {
  name: 'gf extract',
  summary: 'write every texture of a GF set as PNG (DIR/<file>/<entry>_<name>.png, top row first)',
  usage: 'gf extract SET --out DIR [--force] [--json]',
  help: `${SET_HELP}\nDIR is written completely or not at all (built aside, then renamed in). A DIR that holds anything is replaced only with --force; it may never be the set folder or lie inside it.`,
  options: { out: { type: 'string' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const out = requireString(ctx, 'out')
    const set = await loadSet(ctx.positionals[0]!)
    reportSet(ctx, set)
    const bar = ctx.progress('extract')
    const { extractSetPngs } = await repack()
    const res = await extractSetPngs(set, out, { progress: (d, t, s) => bar.update(d, t, s), signal: ctx.signal, consent: { force: ctx.values.force === true } })
    bar.end()
    if (ctx.json) ctx.printJson(res)
    else ctx.out(`${res.textures.length} PNG${res.textures.length === 1 ? '' : 's'} written to ${out}`)
    return 0
  },
}

const replace: Command = {
  name: 'gf replace',
  summary: 'write a repacked GF set to a new folder, with textures re-encoded from PNGs',
  usage: 'gf replace SET --out DIR (--texture FILE:ENTRY=PNG [--texture …] | --png-folder PNGDIR [--dry-run]) [--force] [--json]',
  help: [
    SET_HELP,
    'Each PNG is re-encoded in its texture\'s original format and size (a PNG of another size is an error);',
    'every other byte stays as it was. With no --texture the output equals the input byte for byte',
    '(entries not replaced are copied as they are, even texture entries whose header cannot be read).',
    '--png-folder PNGDIR: every PNG of PNGDIR (and of its sub-folders) named like a texture: <name>.png or <entry>_<name>.png;',
    'in a 1/ 2/ 3/ folder (as gf extract writes them) for that file; <name>_shiny.png for the shiny copy in 2.bin; a bare name',
    'that 1.bin and 2.bin share is the normal texture. What matched what is printed first (stdout); PNGs of the wrong size,',
    'fitting several textures or none are warnings and not used; no match at all is an error. --dry-run prints the matching only.',
    'ETC1/ETC1A4 are encoded by our own encoder; --etc1-effort fast|normal|high trades time for quality (default normal).',
    'The new set is verified (re-parsed, untouched entries compared) before it is moved into DIR; a DIR that holds anything is',
    'replaced only with --force, and DIR may never be or lie inside the set folder, PNGDIR or a PNG.',
    'JSON: {"out","files":[{"file","changed","size","sha256"}],"replaced":[{"file","entry","name","format","width","height","psnr"}]} (psnr null = exact);',
    'with --png-folder also "folder":{"matched":[{"png","file","entry","name"}],"wrongSize","ambiguous","unmatched","unreadable"} (png relative to PNGDIR);',
    '--dry-run --json prints that "folder" object alone.',
    'gf replace GARC#N (--out NEW | --layeredfs DIR --title TITLEID) [--force] --texture …: set N of a GARC archive; the repacked set is written',
    'straight into a new archive as `gf garc pack` writes it (an existing output is replaced only with --force); JSON adds "set".',
  ].join('\n'),
  options: { out: { type: 'string' }, texture: { type: 'string', multiple: true }, 'png-folder': { type: 'string' }, 'dry-run': { type: 'boolean' }, 'etc1-effort': { type: 'string' }, layeredfs: { type: 'string' }, title: { type: 'string' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const folder = ctx.values['png-folder'] as string | undefined
    const dry = ctx.values['dry-run'] === true
    if (dry && !folder) throw new UsageError('--dry-run goes with --png-folder (it shows what the folder\'s PNGs would replace)')
    let args = ((ctx.values.texture as string[] | undefined) ?? []).map(parseTextureArg)
    const effort = (ctx.values['etc1-effort'] as string | undefined) ?? 'normal'
    if (effort !== 'fast' && effort !== 'normal' && effort !== 'high') throw new UsageError(`--etc1-effort takes fast, normal or high, got ${JSON.stringify(effort)}`)
    const archive = await garcSetSource(ctx.positionals[0]!)
    if (!archive) for (const k of ['layeredfs', 'title'] as const) if (ctx.values[k] !== undefined) throw new UsageError(`--${k} is for a set inside an archive (GARC#N)`)
    if (archive && !folder) return (await import('./garc-replace')).replaceInArchive(ctx, archive, args, effort)
    // a folder set's DIR may never be or lie inside PNGDIR either (the PNGs are inputs): refused before any work
    if (!archive && folder && !dry) guardCliOutput(ctx, requireString(ctx, 'out'), [ctx.positionals[0], folder], { kind: 'folder' })
    // Lenient: an entry that is not replaced is copied as opaque bytes, so a set whose untouched
    // texture headers cannot be read still repacks byte for byte (spec §15.1 round trip: an
    // 8-byte entry with the GFTexture signature). Replacing such an entry fails (exit 1) with
    // the header error (file, entry, offset). Package errors stay fatal.
    const set = await loadSet(ctx.positionals[0]!, { lenient: true })
    if (!archive) reportSet(ctx, set) // replaceInArchive reports an archive set's
    let match: SetFolderMatch | undefined
    if (folder) {
      const { matchSetFolder } = await import('./png-folder')
      match = await matchSetFolder(set, folder)
      const fromFolder = folderTextures(ctx, folder, set.dir, match)
      // an explicit --texture wins over the folder's PNG for the same texture
      args = [...args, ...fromFolder.filter((f) => !args.some((a) => a.file === f.file && a.entry === f.entry))]
      if (dry) {
        if (ctx.json) ctx.printJson(match)
        else ctx.out(`${match.matched.length} texture${match.matched.length === 1 ? '' : 's'} would be replaced (dry run: nothing written)`)
        return 0
      }
    }
    if (archive) return (await import('./garc-replace')).replaceInArchive(ctx, archive, args, effort)
    const out = requireString(ctx, 'out')
    const [{ pngReplacements, replacedRows, replacedLine }, { repackSetToFolder }] = await Promise.all([import('./replace-args'), repack()])
    const reps = await pngReplacements(args)
    const bar = ctx.progress('repack')
    const res = await repackSetToFolder(set, out, reps, { progress: (d, t, s) => bar.update(d, t, s), signal: ctx.signal, etc1Effort: effort, consent: { force: ctx.values.force === true } })
    bar.end()
    const replaced = replacedRows(res.replaced)
    if (ctx.json) {
      ctx.printJson({ out: res.out, files: res.files, replaced, ...(match ? { folder: match } : {}) })
      return 0
    }
    for (const r of replaced) ctx.out(replacedLine(r, set.dir))
    ctx.out(`${res.files.length} file${res.files.length === 1 ? '' : 's'} written to ${out} (${res.files.filter((f) => f.changed).length} changed)`)
    return 0
  },
}

/** `modbench gf …` commands (see ../shared/CLI.md). */
export const gfCommands: Command[] = [info, textures, extract, replace].map(namingSetFolder)
