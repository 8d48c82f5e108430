/**
 * Snap scene opens through the app's path (`buildAssetScene`: catalog → ROM → stage scene with
 * actors) on a 16 MiB ROM file, a first and a second open in the same run (issue 26 item 1): the
 * first after the file's mtime changed (the ROM is read and MD5-hashed), the second from the
 * process cache (no read, no MD5), best of 5 pairs, interleaved. The floor beside them is
 * reading the same file once (`readFileSync`), in the same run.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { Report } from './run'
import { buildSnapRom, defaultStage } from '../tests/fixtures/snap/build-rom'
import '../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog } from '../src-main/catalog/catalog'
import { indexPaths } from '../src-main/indexer/indexer'
import { buildAssetScene } from '../src-main/services/scene-builders'
import { gameFileReads } from '../src-main/node/game-file'

const PAIRS = 5

export async function runSceneOpens(report: Report): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-snap-open-'))
  const rom = path.join(dir, 'bench.z64')
  fs.writeFileSync(rom, buildSnapRom({ romSize: 16 * 1024 * 1024, stages: { beach: defaultStage(44, 0, 15, 0) } }).image)
  const catalog = openCatalog(path.join(dir, 'catalog.db'))
  try {
    await indexPaths(catalog, [rom])
    const stage = catalog.search('beach', 50).find((a) => a.kind === 'snap-stage')
    if (!stage) throw new Error('bench: the synthetic ROM has no beach stage')
    await buildAssetScene(catalog, stage.id) // code loaded and warm
    const timed = async (f: () => unknown) => {
      const t = performance.now()
      await f()
      return performance.now() - t
    }
    let first = Infinity, second = Infinity, floor = Infinity
    const reads = gameFileReads()
    for (let k = 1; k <= PAIRS; k++) {
      const st = fs.statSync(rom)
      fs.utimesSync(rom, st.atime, new Date(st.mtimeMs + 1000 * k)) // same bytes, a new mtime: the cache opens it again
      floor = Math.min(floor, await timed(() => fs.readFileSync(rom)))
      first = Math.min(first, await timed(() => buildAssetScene(catalog, stage.id)))
      second = Math.min(second, await timed(() => buildAssetScene(catalog, stage.id)))
    }
    const note = `${gameFileReads() - reads} ROM reads for ${2 * PAIRS} opens`
    report('snap', 'scene open after the ROM changed (read + MD5 + build)', first, 'ms', note)
    report('snap', 'scene open again (process cache: no read, no MD5)', second, 'ms', `${(second / first).toFixed(2)}× the first; saves ${(first - second).toFixed(0)} ms`)
    report('snap', 'floor: reading the 16 MiB ROM file once', floor, 'ms', 'the first open pays this and the MD5, the second neither')
  } finally {
    catalog.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
