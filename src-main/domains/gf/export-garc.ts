/**
 * `gf export-all GARC` (CLI.md "GF model archive"): every set N of the archive → `OUTDIR/<N, 4
 * digits>.glb`, manifest `set` = `GARC#N` plus the set's `name` (§19.6). The archive stays open
 * for the batch; each set reads only its nine entries.
 */
import { garcSets } from '../../../src-shared/formats/gf/garc'
import { garcSetFolder, garcSetLabel } from '../../../src-shared/formats/gf/garc-set'
import { exportBatch, type BatchItem, type BatchOptions } from './export-batch'
import { GarcFile } from './garc-file'

export async function exportAllGarcSets(file: string, outDir: string, opts: BatchOptions = {}): Promise<BatchItem[]> {
  return GarcFile.with(file, async (g) => {
    const sets = async () => {
      const list = []
      for (const s of garcSets(g.tables)) {
        const label = garcSetLabel(file, s.set)
        list.push({
          set: label,
          glb: `${garcSetFolder(s.set)}.glb`,
          extra: { name: await g.setName(s.set) },
          read: async () => (await g.readSetStrict(s.set, label)).files,
        })
      }
      return list
    }
    return exportBatch(sets, outDir, { ...opts, inputs: [file] })
  })
}
