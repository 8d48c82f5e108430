/**
 * Child process of `npm run bench stadium`: exports one Stadium ROM (argv: ROM, OUT) and prints
 * JSON { baselineRss, peakRss, peakRssGrowth, ms, models } — RSS after the modules are loaded and
 * before the ROM is read, the process's peak RSS in absolute terms (getrusage maxrss), its growth
 * over the baseline, the bytes the sparse ROM read took (`bytesRead`), and the export time. A process of its own so
 * the peak is the export's, not the bench's.
 */
import { readStadiumRom, exportStadium } from '../src-main/domains/stadium/rom-file'
import { keepYoungGenerationSmall } from '../src-main/node/heap'
import { prefetchStadium } from '../src-shared/formats/stadium/prefetch'

keepYoungGenerationSmall() // as the CLI does (src-main/cli/main.ts)

const [rom, out] = process.argv.slice(2)
const baselineRss = process.memoryUsage().rss
const t0 = performance.now()
const sr = await readStadiumRom(rom!)
// the bytes the sparse read took from the file (the ranges again, counted; nothing is re-read)
let bytesRead = 0
prefetchStadium(sr.rom.image, (_, length) => (bytesRead += length))
const res = await exportStadium(sr, out!)
const ms = performance.now() - t0
const peakRss = process.resourceUsage().maxRSS * 1024
console.log(JSON.stringify({ baselineRss, peakRss, peakRssGrowth: peakRss - baselineRss, bytesRead, ms, models: res.models }))
