/**
 * `npm run bench gf-garc`: the GF model archive (issue 22). A 9 000-entry archive (1 000 sets of
 * small GF packages, 1.bin stored LZ11, about 60 MB) indexed into a fresh catalog beside reading
 * its tables; `gf garc pack` with one set replaced beside a plain copy of the file; LZ11 decode +
 * re-encode of every compressed entry beside copying their bytes. Figures only.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Report } from './run'
import '../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog } from '../src-main/catalog/catalog'
import { indexPaths } from '../src-main/indexer/indexer'
import { GarcFile } from '../src-main/domains/gf/garc-file'
import { setChanges, writeGarcFile } from '../src-main/domains/gf/garc-pack'
import { garcStoredBytes, parseGarc } from '../src-shared/formats/gf/garc'
import { writeGarc } from '../src-shared/formats/gf/garc-write'
import { decodeLz11, encodeLz11, isLz11 } from '../src-shared/formats/gf/lz11'
import { buildGfTexture, buildModelStub, buildPackage, gradientPicture } from '../tests/fixtures/gf/build-set'

/** The best of `n` runs (the machine is shared: the least disturbed run is the steadiest figure). */
async function ms(f: () => unknown, n = 3): Promise<number> {
  let best = Infinity
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await f()
    best = Math.min(best, performance.now() - t0)
  }
  return best
}

/** A plain copy made durable as the writers make theirs (fsync before it counts as written). */
function copySynced(from: string, to: string): void {
  fs.copyFileSync(from, to)
  const fd = fs.openSync(to, 'r+')
  fs.fsyncSync(fd)
  fs.closeSync(fd)
}

/** 1 000 sets: 0.bin a model stub (~40 KB), 1.bin one 64×64 RGBA8 texture named pmSSSS_00 (LZ11), the rest tiny packages. */
function buildArchive(sets: number): Uint8Array {
  const pic = gradientPicture(64, 64, 3)
  const entries: Uint8Array[] = []
  for (let s = 0; s < sets; s++) {
    const dex = (s % 807) + 1
    entries.push(buildPackage([buildModelStub(s, 40000)], { headerSize: 0x20, align: 16 }))
    entries.push(encodeLz11(buildPackage([buildGfTexture({ name: `pm${String(dex).padStart(4, '0')}_00_BodyA1`, width: 64, height: 64, format: 'RGBA8', rgba: pic })], { headerSize: 0x80, align: 0x80 })))
    for (let k = 2; k < 9; k++) entries.push(buildPackage([new Uint8Array(64).fill(k + s)], { align: 4 }))
  }
  return writeGarc(0x600, 4, entries)
}

export async function run(report: Report): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-garc-'))
  try {
    const bytes = buildArchive(1000)
    const arc = path.join(root, 'dump', 'romfs', 'a', '0', '9', '4')
    fs.mkdirSync(path.dirname(arc), { recursive: true })
    fs.writeFileSync(arc, bytes)
    const mb = bytes.byteLength / 1e6

    // 1. indexing beside reading the tables (and beside reading the whole file)
    const tables = await ms(() => GarcFile.with(arc, async () => {}))
    const whole = await ms(() => fs.readFileSync(arc))
    let assets = 0
    let run = 0
    const t = await ms(async () => {
      const cat = openCatalog(path.join(root, `c${run++}.sqlite`))
      try {
        assets = (await indexPaths(cat, [arc])).assets
      } finally {
        cat.close()
      }
    })
    report('gf-garc', `index a 9 000-entry archive (${mb.toFixed(0)} MB, 1 000 sets named)`, t, 'ms', `${assets} assets, fresh catalog; floor: read its tables ${tables.toFixed(1)} ms; reading the whole file ${whole.toFixed(0)} ms`)

    // 2. pack with one set replaced beside a plain copy
    const setDir = new Map<string, Uint8Array>()
    const g0 = parseGarc(bytes)
    for (let k = 0; k < 9; k++) setDir.set(`${k}.bin`, k === 1 ? decodeLz11(garcStoredBytes(bytes, g0, 9 * 500 + 1)).bytes : garcStoredBytes(bytes, g0, 9 * 500 + k).slice())
    setDir.get('0.bin')![0x40] ^= 1
    setDir.get('1.bin')![0x200] ^= 1
    const copy = await ms(() => fs.copyFileSync(arc, path.join(root, 'copy')))
    const synced = await ms(() => copySynced(arc, path.join(root, 'copy2')))
    const packMs = await ms(() => GarcFile.with(arc, async (g) => writeGarcFile(g, await setChanges(g, 500, setDir), path.join(root, 'packed'))))
    const noop = await ms(() => GarcFile.with(arc, (g) => writeGarcFile(g, new Map(), path.join(root, 'same'))))
    report('gf-garc', 'gf garc pack: 1 000-set archive, one set replaced', packMs, 'ms', `floor: plain copy ${copy.toFixed(0)} ms, with fsync ${synced.toFixed(0)} ms; pack with no --set ${noop.toFixed(0)} ms`)

    // 3. LZ11: decode + re-encode every compressed entry beside copying their bytes
    const compressed = g0.entries.map((e) => garcStoredBytes(bytes, g0, e.index)).filter((b) => b[0] === 0x11 && isLz11(b))
    const storedMb = compressed.reduce((a, b) => a + b.byteLength, 0) / 1e6
    let outMb = 0
    const floor = await ms(() => compressed.map((b) => b.slice()))
    const codec = await ms(() => {
      outMb = 0
      for (const b of compressed) {
        const d = decodeLz11(b).bytes
        outMb += d.byteLength / 1e6
        encodeLz11(d)
      }
    })
    report('gf-garc', `LZ11 decode + re-encode of ${compressed.length} entries`, codec, 'ms', `${storedMb.toFixed(1)} MB stored → ${outMb.toFixed(1)} MB; ${(outMb / (codec / 1000)).toFixed(0)} MB/s of content; floor: copying the stored bytes ${floor.toFixed(1)} ms`)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}
