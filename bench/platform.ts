/** Platform figures: indexing throughput, catalog insert rate, FTS query latency. */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { performance } from 'node:perf_hooks'
import '../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog } from '../src-main/catalog/catalog'
import { indexPaths } from '../src-main/indexer/indexer'
import type { AssetDraft } from '../src-main/plugin/detector'
import { genericRom } from '../tests/fixtures/platform/n64'
import type { Report } from './run'

export async function run(report: Report): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-'))
  try {
    // Indexing throughput on a synthetic 16 MiB ROM image (hash + detect + identify + write).
    const rom = genericRom('BENCH ROM', 'NBNE', 16 * 1024 * 1024, 0)
    for (let i = 0x40; i < rom.length; i += 4) rom[i] = (i * 2654435761) >>> 24
    const romPath = path.join(dir, 'bench.z64')
    fs.writeFileSync(romPath, rom)
    const cat = openCatalog(path.join(dir, 'c.sqlite'))
    let t = performance.now()
    await indexPaths(cat, [romPath])
    let ms = performance.now() - t
    report('platform', 'index 16 MiB ROM image (first time)', 16 / (ms / 1000), 'MiB/s', `${ms.toFixed(0)} ms`)
    t = performance.now()
    await indexPaths(cat, [romPath])
    ms = performance.now() - t
    report('platform', 're-index unchanged 16 MiB image (hash only)', 16 / (ms / 1000), 'MiB/s', `${ms.toFixed(0)} ms`)

    // Catalog insert rate: 100 000 assets in one source transaction.
    const drafts: AssetDraft<string>[] = [{ key: 'root', kind: 'game', name: 'Bench', locator: {} }]
    const words = ['pikachu', 'eye', 'body', 'mouth', 'tex', 'beach', 'tunnel', 'valley', 'root', 'spine']
    for (let i = 0; i < 100_000; i++) {
      drafts.push({ key: `a${i}`, parentKey: 'root', kind: 'texture', name: `${words[i % 10]}_${words[(i * 7) % 10]}_${i}`, locator: { entry: i }, metadata: { width: 64, height: 64 }, tags: ['RGBA8'] })
    }
    t = performance.now()
    cat.replaceSource({ path: path.join(dir, 'fake-set'), size: 1, mtime: 1, hash: 'x', kind: 'gf-set' }, drafts)
    ms = performance.now() - t
    report('platform', 'catalog insert, 100 000 assets in one transaction', drafts.length / (ms / 1000), 'assets/s', `${ms.toFixed(0)} ms`)

    // FTS latency with 100 000 assets.
    const queries = ['pika', 'eye body', 'valley_root', 'spine 9999', 'zzz']
    const N = 50
    t = performance.now()
    let hits = 0
    for (let i = 0; i < N; i++) for (const q of queries) hits += cat.search(q, 200).length
    ms = (performance.now() - t) / (N * queries.length)
    report('platform', 'FTS query latency (100 000 assets, limit 200)', ms, 'ms/query', `${hits} hits`)
    t = performance.now()
    for (let i = 0; i < N; i++) cat.children(1, null)
    const sid = cat.sourceByPath(path.join(dir, 'fake-set'))!.id
    const root = cat.children(sid, null)[0]!
    t = performance.now()
    for (let i = 0; i < 20; i++) cat.children(sid, root.id, i * 2000, 2000)
    ms = (performance.now() - t) / 20
    report('platform', 'tree page of 2000 children', ms, 'ms/page')
    cat.close()
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
