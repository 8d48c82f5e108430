/**
 * Running gf jobs by jobId (`gf:previewReplace`, `gf:repack`, `gf:exportSets`), for the one
 * cancel channel `gf:cancelJob`: a cancelled job rejects with a CancelledError (code
 * `cancelled`, which the API error reply carries) and writes nothing.
 */
export class CancelledError extends Error {
  readonly code = 'cancelled'
  constructor(message = 'cancelled') {
    super(message)
    this.name = 'CancelledError'
  }
}

const running = new Map<string, AbortController>()

/** Runs `work` as job `jobId` (cancellable through `cancelJob` while it runs); no id: not cancellable. */
export async function asJob<T>(jobId: string | undefined, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!jobId) return work(undefined)
  const ac = new AbortController()
  running.get(jobId)?.abort(new CancelledError(`replaced by a new job ${jobId}`))
  running.set(jobId, ac)
  try {
    return await work(ac.signal)
  } finally {
    if (running.get(jobId) === ac) running.delete(jobId)
  }
}

/** Cancels job `jobId`; false when no such job runs. */
export function cancelJob(jobId: string): boolean {
  const ac = running.get(jobId)
  ac?.abort(new CancelledError())
  return !!ac
}
