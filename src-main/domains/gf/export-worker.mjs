// Bootstrap of a batch export worker thread (see export-pool.ts), as etc1-worker.mjs is for the
// ETC1 pool: registers tsx in this thread (loader hooks registered in the main thread are not
// inherited by workers on Node 20), then loads the TypeScript worker module.
import { register } from 'tsx/esm/api'
import { workerData } from 'node:worker_threads'

register({ tsconfig: workerData.tsconfig })
await import(workerData.entry)
