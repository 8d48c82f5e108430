/**
 * Worker thread body of the ETC1 pool (etc1-pool.ts): encodes a range of tile rows of a level
 * (the shared encoder of src-shared) and sends the bytes back. Started through etc1-worker.mjs.
 */
import { parentPort } from 'node:worker_threads'
import { encodeEtc1 } from '../../../src-shared/formats/pica/etc1'
import type { Etc1RowsJob, Etc1RowsReply } from './etc1-pool'

parentPort!.on('message', (job: Etc1RowsJob) => {
  let reply: Etc1RowsReply
  try {
    const bytes = encodeEtc1(job.rgba, job.width, job.height, job.withAlpha, { effort: job.effort, tileRows: { from: job.from, to: job.to } })
    reply = { id: job.id, bytes }
    parentPort!.postMessage(reply, [bytes.buffer as ArrayBuffer])
  } catch (e) {
    reply = { id: job.id, error: e instanceof Error ? e.message : String(e) }
    parentPort!.postMessage(reply)
  }
})
