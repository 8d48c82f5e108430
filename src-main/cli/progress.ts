import type { ProgressReporter } from '../plugin/command'

/** Progress on stderr: a redrawn bar on a terminal, one plain line per ~10% otherwise. */
export function stderrProgress(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  const tty = !!stream.isTTY
  let lastPct = -1
  let lastDraw = 0
  return {
    update(done, total, detail) {
      const pct = total > 0 ? Math.floor((done / total) * 100) : 0
      if (tty) {
        const now = Date.now()
        if (now - lastDraw < 50 && done < total) return
        lastDraw = now
        const width = 24
        const fill = Math.round((pct / 100) * width)
        stream.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total}${detail ? ` ${detail}` : ''}`.slice(0, 120).padEnd(80))
      } else if (Math.floor(pct / 10) !== Math.floor(lastPct / 10) || done === total) {
        stream.write(`${label}: ${done}/${total}${detail ? ` ${detail}` : ''}\n`)
      }
      lastPct = pct
    },
    end() {
      if (tty) stream.write('\n')
    },
  }
}
