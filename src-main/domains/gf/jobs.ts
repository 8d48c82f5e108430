/**
 * Running cancellable gf jobs (batch export, repack) by job id: `gf:cancelJob` aborts the one
 * named. A job's output is written atomically, so an aborted job leaves no partial folder.
 */
const jobs = new Map<string, AbortController>()

/** Runs `work` with an AbortSignal registered under `jobId` until it settles. */
export async function runJob<T>(jobId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController()
  jobs.set(jobId, ac)
  try {
    return await work(ac.signal)
  } finally {
    if (jobs.get(jobId) === ac) jobs.delete(jobId)
  }
}

/** Aborts the job `jobId`; false when no such job runs. */
export function cancelJob(jobId: string): boolean {
  const ac = jobs.get(jobId)
  ac?.abort(new Error('cancelled'))
  return !!ac
}
