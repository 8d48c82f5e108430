/**
 * Heap settings for batch work in a process of our own (the CLI, the bench's export child).
 *
 * V8 grows the young generation while a long run allocates (each growth doubles a semi-space, up
 * to 16 MiB, so 32 MiB of RSS), and keeps it: garbage of short-lived objects then sits in RSS.
 * For a Stadium export that was about 25 MiB of its peak (issue 15 item 5). With the growth
 * factor at 1 the young generation stays at its initial size and is scavenged more often, which
 * cost no measurable time on the export (`npm run bench stadium`). `--semi-space-growth-factor` is
 * read by V8 each time it grows the young generation, so setting it after start takes effect
 * (`--max-semi-space-size` does not: it is read once when the heap is set up).
 * Not used in the Electron main process, whose heap serves the app. docs/DECISIONS.md,
 * "Stadium export memory".
 */
import { setFlagsFromString } from 'node:v8'

let done = false

export function keepYoungGenerationSmall(): void {
  if (done) return
  done = true
  setFlagsFromString('--semi-space-growth-factor=1')
}
