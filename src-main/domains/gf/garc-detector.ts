/**
 * The catalog's view of a GARC (CLI.md "GF model archive": `index` records one source with its sets
 * as children). Any file starting `CRAG` is claimed; indexing reads the tables and, per set, the
 * few bytes its name needs (spec §19.6), never the entries, so a romfs dump of hundreds of
 * archives indexes at the speed of its file tables. An archive whose first sets hold GF models
 * becomes a `gf-models` source ("Pokémon models") with one `gf-garc-set` child per set, named by
 * species and form, and one `gf-garc-entry` per entry outside a set; any other GARC (text, maps…)
 * is a `gf-garc` source with its entry count only, recorded only when named on its own (met while
 * walking a dump folder it is incidental: the tree of a dump shows the Pokémon models).
 */
import { createHash } from 'node:crypto'
import * as path from 'node:path'
import type { AssetDraft, DetectInput, EnumerateResult, FileDetector } from '../../plugin/detector'
import { GARC_SET_SIZE, garcLooseEntries, garcSets } from '../../../src-shared/formats/gf/garc'
import { garcSpeciesForm, garcSetName } from '../../../src-shared/formats/gf/garc-set'
import { speciesName } from '../../../src-shared/formats/gf/species'
import { SIG_MODEL } from '../../../src-shared/formats/gf/entry-kind'
import { LZ11_TYPE, decodeLz11 } from '../../../src-shared/formats/gf/lz11'
import { GarcFile } from './garc-file'
import { FormatError } from '../../../src-shared/binary/errors'
import { romfsRelative } from '../../../src-shared/formats/gf/romfs-path'

/** How many leading sets are probed for a GFModel to call the archive a model archive. */
const PROBE_SETS = 3

/** The archive's path below the `romfs` folder of its dump (`a/0/9/4`), or null. */
export const romfsPath = (file: string): string | null => romfsRelative(path.resolve(file))

/** True when set `n`'s `0.bin` is a `PC` package whose first entry is a GFModel (a few bytes read). */
async function holdsModel(g: GarcFile, n: number): Promise<boolean> {
  const e = g.tables.entries[n * GARC_SET_SIZE]!
  if (e.length < 12) return false
  let head = await g.stored(e.index, 256)
  if (head[0] === LZ11_TYPE) {
    try {
      head = decodeLz11(await g.stored(e.index, 4096), {}, 256).bytes
    } catch {
      return false
    }
  }
  if (head.length < 12 || head[0] !== 0x50 || head[1] !== 0x43) return false
  const first = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(4, true)
  if (first + 4 > head.length) {
    const more = await g.stored(e.index, first + 4)
    if (more[0] === LZ11_TYPE) return false // a compressed model deep in the entry: not probed further
    head = more
  }
  return head.length >= first + 4 && new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(first, true) === SIG_MODEL
}

/** The catalog entries of an open archive, and a digest of everything read. */
export async function enumerateGarc(g: GarcFile, file: string): Promise<EnumerateResult & { hash: string }> {
  const h = createHash('sha1').update(g.tableBytes)
  const sets = garcSets(g.tables)
  const meta = { version: g.tables.version, alignment: g.tables.alignment, entries: g.tables.entries.length, sets: sets.length, romfsPath: romfsPath(file) }
  let models = false
  for (const s of sets.slice(0, PROBE_SETS)) if (await holdsModel(g, s.set)) models = true
  if (!models) return { kind: 'gf-garc', assets: [], metadata: meta, incidental: true, hash: h.digest('hex') }
  const assets: AssetDraft[] = []
  for (const s of sets) {
    const texture = await g.setTextureName(s.set)
    const name = garcSetName(texture, s.set)
    h.update(`${s.set}\0${texture ?? ''}\0`)
    const sf = garcSpeciesForm(texture)
    const species = sf ? speciesName(sf.species) : null
    assets.push({
      key: `set${s.set}`,
      kind: 'gf-garc-set',
      name,
      locator: { set: s.set, first: s.first },
      metadata: { set: s.set, first: s.first, ...(sf ? { species: sf.species, form: sf.form } : {}), ...(texture ? { textureName: texture } : {}), stored: g.tables.entries.slice(s.first, s.first + GARC_SET_SIZE).reduce((a, e) => a + e.length, 0) },
      tags: ['pokemon', 'set', `set ${s.set}`, ...(species ? [species] : []), ...(sf ? [`pm${String(sf.species).padStart(4, '0')}_${String(sf.form).padStart(2, '0')}`, `#${sf.species}`] : [])],
    })
  }
  for (const i of garcLooseEntries(g.tables)) {
    const e = g.tables.entries[i]!
    assets.push({ key: `entry${i}`, kind: 'gf-garc-entry', name: `entry ${i}`, locator: { entry: i }, metadata: { offset: e.offset, length: e.length }, tags: ['entry'] })
  }
  return { kind: 'gf-models', assets, metadata: { ...meta, named: assets.filter((a) => a.kind === 'gf-garc-set' && !a.name.startsWith('set ')).length }, hash: h.digest('hex') }
}

export const gfGarcDetector: FileDetector = {
  id: 'gf-garc',
  kind: 'gf-garc',
  matchContent: (input: DetectInput) => input.head.length >= 4 && input.head[0] === 0x43 && input.head[1] === 0x52 && input.head[2] === 0x41 && input.head[3] === 0x47,
  async enumerate(bytes, input) {
    const g = await GarcFile.fromBytes(input.path, bytes)
    try {
      const { hash: _hash, ...res } = await enumerateGarc(g, input.path)
      return res
    } finally {
      await g.close()
    }
  },
  async enumeratePartial(input) {
    try {
      return await GarcFile.with(input.path, (g) => enumerateGarc(g, input.path))
    } catch (e) {
      // a language-variant archive (text, §19.3): a GARC, but never a model archive
      if (!(e instanceof FormatError) || !/^FATB record \d+$/.test(e.structure ?? '') || !/bit vector/.test(e.detail)) throw e
      return { kind: 'gf-garc', assets: [], metadata: { note: `language-variant archive (${e.detail})`, romfsPath: romfsPath(input.path) }, incidental: true, hash: createHash('sha1').update(input.head).digest('hex') }
    }
  },
}
