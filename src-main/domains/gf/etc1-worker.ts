/**
 * Worker thread body: re-encodes a GFTexture entry from an RGBA8 image (the shared encoder of
 * src-shared) and sends back the new entry, the decoded result and the PSNR. Started by
 * reencode-worker.ts through etc1-worker.mjs.
 */
import { parentPort } from 'node:worker_threads'
import { reencodeTexture } from '../../../src-shared/formats/gf/replace'
import type { ReencodeJob, ReencodeReply } from './reencode-worker'

parentPort!.on('message', (job: ReencodeJob) => {
  let reply: ReencodeReply
  try {
    const r = reencodeTexture(job.entry, job.rgba, job.width, job.height, job.ctx, job.opts)
    reply = { id: job.id, bytes: r.bytes, decoded: r.decoded, psnr: r.psnr }
    parentPort!.postMessage(reply, [r.bytes.buffer as ArrayBuffer, r.decoded.buffer as ArrayBuffer])
  } catch (e) {
    reply = { id: job.id, error: e instanceof Error ? e.message : String(e) }
    parentPort!.postMessage(reply)
  }
})
