// Bootstrap of an ETC1 pool worker thread (see etc1-pool.ts): registers tsx in this thread
// (loader hooks registered in the main thread are not inherited by workers on Node 20), then loads
// the TypeScript worker module. Plain JavaScript so that Node can start it as is.
import { register } from 'tsx/esm/api'
import { workerData } from 'node:worker_threads'

register({ tsconfig: workerData.tsconfig })
await import(workerData.entry)
