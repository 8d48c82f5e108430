/** `modbench gf garc …` (CLI.md "GF model archive", spec gf-packages §19). */
import { UsageError, requireString, type Command, type CommandContext } from '../../plugin/command'
import { garcLooseEntries, garcSets } from '../../../src-shared/formats/gf/garc'
import { garcMemberName, garcSetFolder } from '../../../src-shared/formats/gf/garc-set'
import { GF_TITLES, titleId } from '../../../src-shared/formats/gf/titles'
import { GarcFile } from './garc-file'
import { layeredFsTarget, readSetDirFiles, setChanges, writeGarcFile } from './garc-pack'
import { guardOutput } from './output-guard'
import { writeDirAtomic } from '../../node/atomic'

const GARC_HELP = 'GARC is the archive file as dumped from the romfs (e.g. romfs/a/0/9/4); set N is its entries 9N … 9N+8 (spec gf-packages §19).'

/** `--out NEW` or `--layeredfs DIR --title TITLEID` → the output file (usage errors otherwise). */
export function archiveOutput(ctx: CommandContext, archive: string): { out: string; flag: string } {
  const out = ctx.values.out as string | undefined
  const lfs = ctx.values.layeredfs as string | undefined
  const title = ctx.values.title as string | undefined
  if (out !== undefined && lfs !== undefined) throw new UsageError('give either --out or --layeredfs, not both')
  if (lfs !== undefined) {
    if (title === undefined) throw new UsageError('--layeredfs needs --title TITLEID (e.g. 00040000001B5000 for Ultra Sun, 00040000001B5100 for Ultra Moon)')
    if (!titleId(title)) throw new UsageError(`--title takes a 16-digit hex title id, got ${JSON.stringify(title)}`)
    return { out: layeredFsTarget(archive, lfs, title), flag: '--layeredfs' }
  }
  if (title !== undefined) throw new UsageError('--title goes with --layeredfs')
  if (out === undefined) throw new UsageError('give --out NEW or --layeredfs DIR --title TITLEID')
  return { out, flag: '--out' }
}

export const ARCHIVE_OUTPUT_OPTIONS = { out: { type: 'string' }, layeredfs: { type: 'string' }, title: { type: 'string' }, force: { type: 'boolean' } } as const

const list: Command = {
  name: 'gf garc',
  summary: 'list a GARC model archive: every entry (offset, length, LZ11) and the nine-file sets with their species names',
  usage: 'gf garc GARC [--json]',
  help: `${GARC_HELP}\nJSON: {"version","alignment","entries":[{"index","offset","length","compressed"}],"sets":[{"set","first","name"}]}\noffset is absolute in the archive, length the stored size; name is the species and form read from the set's texture names, else "set N".`,
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = ctx.positionals[0]!
    return GarcFile.with(file, async (g) => {
      const flags = await g.compressedFlags()
      const entries = g.tables.entries.map((e) => ({ index: e.index, offset: e.offset, length: e.length, compressed: flags[e.index]! }))
      const sets: { set: number; first: number; name: string }[] = []
      for (const s of garcSets(g.tables)) sets.push({ ...s, name: await g.setName(s.set) })
      if (ctx.json) {
        ctx.printJson({ version: g.tables.version, alignment: g.tables.alignment, entries, sets })
        return 0
      }
      ctx.out(`${file}: GARC version ${g.tables.version >> 8}, alignment ${g.tables.alignment}, ${entries.length} entries (${flags.filter(Boolean).length} LZ11), ${sets.length} sets`)
      for (const s of sets) ctx.out(`  set ${String(s.set).padStart(4)}  entries ${s.first}–${s.first + 8}  ${s.name}`)
      const loose = garcLooseEntries(g.tables)
      if (loose.length) ctx.out(`  outside a set: ${loose.join(', ')}`)
      return 0
    })
  },
}

/**
 * Writes a new folder at `out`, replacing an existing one only when allowed (guardOutput ran):
 * built aside and swapped in by writeDirAtomic (its temps are the ones the guard cleans up).
 */
async function writeDirReplacing(out: string, files: AsyncIterable<[string, Uint8Array]>): Promise<void> {
  return writeDirAtomic(out, files, undefined, { replace: true })
}

const extract: Command = {
  name: 'gf garc extract',
  summary: 'write every set of a GARC as DIR/<set, 4 digits>/0.bin … 8.bin (decompressed) and the other entries as DIR/entries/<index>.bin',
  usage: 'gf garc extract GARC --out DIR [--force] [--json]',
  help: `${GARC_HELP}\nDIR is written completely or not at all; an existing DIR is replaced only with --force.\nJSON: {"out","sets":[N…],"entries":[index…]}`,
  options: { out: { type: 'string' }, force: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = ctx.positionals[0]!
    const out = requireString(ctx, 'out')
    return GarcFile.with(file, async (g) => {
      await guardOutput(out, [file], ctx.values.force === true, '--out', 'folder')
      const sets = garcSets(g.tables)
      const loose = garcLooseEntries(g.tables)
      const bar = ctx.progress('extract')
      const total = g.tables.entries.length
      async function* files(): AsyncGenerator<[string, Uint8Array]> {
        for (const s of sets) {
          ctx.signal.throwIfAborted()
          bar.update(s.first, total, `set ${s.set}`)
          const { files: members } = await g.readSet(s.set)
          for (let k = 0; k < 9; k++) yield [`${garcSetFolder(s.set)}/${garcMemberName(k)}`, members.get(garcMemberName(k)) ?? new Uint8Array(0)]
        }
        for (const i of loose) yield [`entries/${i}.bin`, (await g.content(i)).bytes]
      }
      try {
        await writeDirReplacing(out, files())
      } finally {
        bar.end()
      }
      if (ctx.json) ctx.printJson({ out, sets: sets.map((s) => s.set), entries: loose })
      else ctx.out(`${sets.length} set${sets.length === 1 ? '' : 's'} and ${loose.length} other entr${loose.length === 1 ? 'y' : 'ies'} written to ${out}`)
      return 0
    })
  },
}

/** `--set N=SETDIR` → [N, SETDIR]. */
function parseSetArg(arg: string): [number, string] {
  const m = /^(\d+)=(.+)$/.exec(arg)
  if (!m) throw new UsageError(`--set takes N=SETDIR (e.g. 25=edited/0025), got ${JSON.stringify(arg)}`)
  return [Number(m[1]), m[2]!]
}

const pack: Command = {
  name: 'gf garc pack',
  summary: 'write a new GARC with sets replaced by set folders (LZ11 again where it was), every other entry byte for byte',
  usage: 'gf garc pack GARC --set N=SETDIR [--set …] (--out NEW | --layeredfs DIR --title TITLEID) [--force] [--json]',
  help: `${GARC_HELP}\nWith no --set the output equals the input byte for byte. The version and alignment are kept.\n--layeredfs DIR --title TITLEID writes DIR/luma/titles/TITLEID/romfs/<path below romfs> (Luma3DS LayeredFS).\nTitle ids: ${GF_TITLES.map((t) => `${t.game.replace('Pokémon ', '')} ${t.id}`).join(', ')}.\nAn existing output is replaced only with --force. JSON: {"out","replaced":[N…]}`,
  options: { ...ARCHIVE_OUTPUT_OPTIONS, set: { type: 'string', multiple: true } },
  optionHelp: {
    set: 'N=SETDIR: set N replaced by the folder SETDIR (0.bin … 8.bin; a missing file keeps its entry)',
    out: 'the new archive',
    layeredfs: 'an SD-card folder: writes luma/titles/TITLEID/romfs/<path> in it',
    title: 'the 16-digit title id for --layeredfs',
    force: 'replace an existing output',
  },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = ctx.positionals[0]!
    const sets = ((ctx.values.set as string[] | undefined) ?? []).map(parseSetArg)
    const dup = sets.find(([n], i) => sets.findIndex(([m]) => m === n) !== i)
    if (dup) throw new UsageError(`set ${dup[0]} is given twice`)
    const { out, flag } = archiveOutput(ctx, file)
    return GarcFile.with(file, async (g) => {
      await guardOutput(out, [file, ...sets.map(([, d]) => d)], ctx.values.force === true, flag)
      const changes = new Map<number, Uint8Array>()
      for (const [n, dir] of sets) {
        g.checkSet(n)
        const { files, missing } = await readSetDirFiles(dir)
        if (missing.length) ctx.err(`warning: ${dir}: ${missing.join(', ')} missing; set ${n} keeps those entries`)
        for (const [i, b] of await setChanges(g, n, files)) changes.set(i, b)
      }
      const bar = ctx.progress('pack')
      try {
        await writeGarcFile(g, changes, out, { signal: ctx.signal, progress: (d, t, s) => bar.update(d, t, s) })
      } finally {
        bar.end()
      }
      const replaced = sets.map(([n]) => n).sort((a, b) => a - b)
      if (ctx.json) ctx.printJson({ out, replaced })
      else ctx.out(`wrote ${out}${replaced.length ? ` (set${replaced.length === 1 ? '' : 's'} ${replaced.join(', ')} replaced, ${changes.size} entr${changes.size === 1 ? 'y' : 'ies'} changed)` : ' (a byte-for-byte copy)'}`)
      return 0
    })
  },
}

export const gfGarcCommands: Command[] = [list, extract, pack]
