import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { IndexProgress, IndexResult } from '../../src-shared/api/catalog'

/**
 * Runs indexing off the UI/server thread: each job is a child process running the same CLI
 * (`modbench index --progress-ndjson`), with its own heap. Progress lines stream back as events;
 * cancelling sends SIGINT, which stops between sources (the source in progress rolls back).
 */
export class IndexJobs {
  private running = new Map<string, ChildProcess>()

  constructor(
    private dbPath: string,
    private onProgress: (p: IndexProgress) => void,
    private onDone: () => void,
  ) {}

  /** The `modbench` command: it runs the built CLI (out/cli/, rebuilt first if a source changed), not the TypeScript sources. */
  static cliPath(): string {
    return path.resolve(import.meta.dirname, '..', '..', 'bin', 'modbench.mjs')
  }

  start(paths: string[], jobId: string = randomUUID()): Promise<IndexResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [IndexJobs.cliPath(), 'index', '--json', '--progress-ndjson', '--db', this.dbPath, ...paths], {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      this.running.set(jobId, child)
      let out = ''
      let errText = ''
      let buf = ''
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        buf += d
        let nl: number
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl)
          buf = buf.slice(nl + 1)
          if (line.startsWith('{"progress"')) {
            try {
              const p = (JSON.parse(line) as { progress: Omit<IndexProgress, 'jobId'> }).progress
              this.onProgress({ ...p, jobId })
            } catch {
              errText += line + '\n'
            }
          } else errText += line + '\n'
        }
      })
      child.on('error', (e) => {
        this.running.delete(jobId)
        reject(e)
      })
      child.on('close', (code, signal) => {
        this.running.delete(jobId)
        this.onDone()
        let result: IndexResult | null = null
        try {
          result = JSON.parse(out) as IndexResult
        } catch {
          /* no JSON: the child died or was killed */
        }
        if (result) {
          if (result.cancelled) this.onProgress({ jobId, phase: 'cancelled', done: 0, total: 0 })
          resolve(result)
        } else if (signal === 'SIGINT' || signal === 'SIGTERM') {
          this.onProgress({ jobId, phase: 'cancelled', done: 0, total: 0 })
          resolve({ sources: [], assets: 0, cancelled: true })
        } else {
          const message = errText.trim() || `indexer exited with code ${code ?? signal}`
          this.onProgress({ jobId, phase: 'error', done: 0, total: 0, message })
          reject(new Error(message))
        }
      })
    })
  }

  cancel(jobId: string): boolean {
    const c = this.running.get(jobId)
    if (!c) return false
    c.kill('SIGINT')
    return true
  }

  get active(): string[] {
    return [...this.running.keys()]
  }

  cancelAll(): void {
    for (const c of this.running.values()) c.kill('SIGTERM')
  }
}
