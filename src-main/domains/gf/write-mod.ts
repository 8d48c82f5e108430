/**
 * "Write mod…" (`gf:writeMod`, issue 22 item 4): the pending texture replacements of many sets of
 * one model archive, each set repacked in memory as `gf replace` does, written together into one
 * new archive (`gf garc pack`'s writer: every other entry byte for byte), to a file or to the
 * LayeredFS place of a chosen title. Never over the dump: the archive and its romfs folder are
 * inputs the output may not be, lie in or hold.
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import type { ServiceContext } from '../../plugin/context'
import type { GfModelApi } from '../../../src-shared/api/gf-model'
import { garcSetLabel } from '../../../src-shared/formats/gf/garc-set'
import { titleId } from '../../../src-shared/formats/gf/titles'
import { GarcFile } from './garc-file'
import { layeredFsTarget, setChanges, writeGarcFile } from './garc-pack'
import { guardOutput } from './output-guard'
import { repackSetInMemory } from './repack'
import { replacementsOf } from './replacement-images'
import { loadSet } from './set-folder'

type Req = GfModelApi['gf:writeMod']['req']
type Res = GfModelApi['gf:writeMod']['res']
export type ModProgress = (done: number, total: number, detail: string) => void

/** The romfs folder the archive lies in (the dump), if any. */
function romfsOf(archive: string): string | null {
  const parts = path.resolve(archive).split(path.sep)
  const at = parts.lastIndexOf('romfs', parts.length - 2)
  return at >= 0 ? parts.slice(0, at + 1).join(path.sep) || path.sep : null
}

/** The file the mod goes to, checked: never the dump, an existing one only with `overwrite`. */
export async function modTarget(archive: string, target: Req['target'], overwrite: boolean): Promise<string> {
  let out: string
  if ('layeredfs' in target) {
    const id = titleId(target.title)
    if (!id) throw new Error(`title id ${JSON.stringify(target.title)} is not 16 hex digits (Ultra Sun 00040000001B5000, Ultra Moon 00040000001B5100)`)
    out = layeredFsTarget(archive, target.layeredfs, id)
  } else out = target.out
  const romfs = romfsOf(archive)
  const flag = 'layeredfs' in target ? 'the LayeredFS folder' : 'the output'
  // the inputs first (refused even when confirmed), then an existing target the user did not
  // confirm, which crosses the API as code `exists` so the UI can ask
  await guardOutput(out, romfs ? [archive, romfs] : [archive], true, flag)
  if (!overwrite && (await fsp.lstat(out).catch(() => null))) throw Object.assign(new Error(`${out} already exists; confirm replacing it`), { code: 'exists' })
  return path.resolve(out)
}

/** Repacks each set with its replacements and writes the one new archive. */
export async function writeMod(ctx: ServiceContext, req: Req, out: string, signal: AbortSignal | undefined, progress: ModProgress): Promise<Res> {
  const archive = path.resolve(req.archive)
  const warnings: string[] = []
  const sets: Res['sets'] = []
  const total = req.sets.length + 1
  await GarcFile.with(archive, async (g) => {
    const changes = new Map<number, Uint8Array>()
    for (const [i, s] of req.sets.entries()) {
      signal?.throwIfAborted()
      const label = garcSetLabel(archive, s.set)
      progress(i, total, `set ${s.set}: encoding ${s.replacements.length} texture${s.replacements.length === 1 ? '' : 's'}`)
      const set = await loadSet(label, { lenient: true })
      const reps = await replacementsOf(ctx, set, s.replacements, req.resize ?? true, warnings)
      const result = await repackSetInMemory(set, reps, { signal })
      const mine = await setChanges(g, s.set, result.files)
      for (const [k, v] of mine) changes.set(k, v)
      sets.push({ set: s.set, changed: [...mine.keys()].map((k) => `${k % 9}.bin`), replaced: result.report.length })
    }
    progress(req.sets.length, total, `writing ${path.basename(out)}`)
    await writeGarcFile(g, changes, out, { signal, progress: (d, t) => progress(req.sets.length + (t ? d / t : 0), total, `writing ${path.basename(out)}`) })
  })
  progress(total, total, 'done')
  return { out, sets, warnings }
}
