/**
 * `npm run bench`: prints figures (never pass/fail) so runs can be compared. Each domain
 * contributes `bench/<domain>.ts` exporting `run(report)`.
 */
export type Report = (group: string, label: string, value: number, unit: string, note?: string) => void

const rows: { group: string; label: string; value: number; unit: string; note?: string }[] = []
const report: Report = (group, label, value, unit, note) => {
  rows.push({ group, label, value, unit, note })
  console.log(`${group.padEnd(10)} ${label.padEnd(56)} ${value.toFixed(value >= 100 ? 0 : 2).padStart(12)} ${unit}${note ? `  (${note})` : ''}`)
}

const only = process.argv.slice(2)
const domains = ['cli', 'platform', 'catalog', 'indexing', 'scene', 'gf', 'gf-model', 'gf-batch', 'gf-garc', 're', 'snap', 'stadium', 'materials', 'materials-gpu', 'views']
for (const d of domains) {
  if (only.length && !only.includes(d)) continue
  const mod = (await import(`./${d}.ts`).catch((e: Error) => {
    if (/Cannot find module|ERR_MODULE_NOT_FOUND/.test(String(e))) return null
    throw e
  })) as { run(report: Report): Promise<void> } | null
  if (!mod) continue
  await mod.run(report)
}
if (process.env.BENCH_JSON) console.log(JSON.stringify(rows))
