/** What `gf replace` does with its arguments and results, for a set folder and for GARC#N alike. */
import type { ReplacementReport, TextureReplacement } from '../../../src-shared/formats/gf/replace'
import * as path from 'node:path'
import { readPng } from './png'

/** Each `--texture FILE:ENTRY=PNG` with its PNG read. */
export async function pngReplacements(args: readonly { file: string; entry: number; png: string }[]): Promise<TextureReplacement[]> {
  const reps: TextureReplacement[] = []
  for (const a of args) {
    const img = await readPng(a.png)
    reps.push({ file: a.file, entry: a.entry, rgba: img.rgba, width: img.width, height: img.height, source: a.png })
  }
  return reps
}

/** The JSON `replaced` rows: PSNR to two decimals, null when exact. */
export function replacedRows(report: readonly ReplacementReport[]): (Omit<ReplacementReport, 'psnr'> & { psnr: number | null })[] {
  return report.map((r) => ({ ...r, psnr: Number.isFinite(r.psnr) ? Math.round(r.psnr * 100) / 100 : null }))
}

/** One line per replaced texture, for the plain output; the file named with its set as given (`set1/1.bin`). */
export function replacedLine(r: ReturnType<typeof replacedRows>[number], set: string): string {
  return `${path.join(set, r.file)} entry ${r.entry} ${r.name}: ${r.format} ${r.width}×${r.height}, PSNR ${r.psnr === null ? 'exact' : `${r.psnr} dB`}`
}
