import * as http from 'node:http'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { openCatalog } from '../catalog/catalog'
import { samplesDir } from '../catalog/paths'
import { AccessDenied, Services } from '../services/index'
import { decodeEnvelope, encodeEnvelope, isEnvelope } from '../../src-shared/transport/codec'
import { errorReplyOf } from '../../src-shared/transport/api-error'
import { FormatError } from '../../src-shared/binary'
import { ensureRendererBuilt, rendererDir } from './renderer-build'
import { CSP } from './csp'

export interface ServerOptions {
  dbPath: string
  port?: number
  /** On a first start with an empty catalog, index the bundled samples. */
  indexSamplesWhenEmpty?: boolean
  /** Where the built renderer is (default out/renderer, built on first use). */
  staticDir?: string
  log?: (text: string) => void
}

export interface RunningServer {
  url: string
  token: string
  port: number
  services: Services
  close(): Promise<void>
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}


const MAX_BODY = 256 * 1024 * 1024

function readBody(req: http.IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let n = 0
    req.on('data', (c: Buffer) => {
      n += c.length
      if (n > MAX_BODY) {
        reject(new Error('request body too large'))
        req.destroy()
      } else chunks.push(c)
    })
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
    req.on('error', reject)
  })
}

const errorReply = errorReplyOf // one reply shape for both transports (src-shared/transport/api-error.ts)

/**
 * Browser mode: the built renderer and the API on 127.0.0.1 only, with a random token per run
 * required on every API request (header `x-modbench-token` or `?token=`).
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const log = opts.log ?? (() => {})
  const staticDir = path.resolve(opts.staticDir ?? rendererDir())
  if (!opts.staticDir) await ensureRendererBuilt(log)
  const catalog = openCatalog(opts.dbPath)
  const services = new Services(catalog)
  const token = randomBytes(24).toString('hex')
  const tokenBuf = Buffer.from(token)
  const sse = new Set<http.ServerResponse>()

  services.on((event, payload) => {
    const data = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`
    for (const res of sse) res.write(data)
  })

  const authorised = (req: http.IncomingMessage, url: URL): boolean => {
    const given = (req.headers['x-modbench-token'] as string | undefined) ?? url.searchParams.get('token') ?? ''
    const b = Buffer.from(given)
    return b.length === tokenBuf.length && timingSafeEqual(b, tokenBuf)
  }

  const send = (res: http.ServerResponse, status: number, body: Uint8Array | string, type: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    res.end(body)
  }

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    if (!authorised(req, url)) return send(res, 401, JSON.stringify({ error: { message: 'missing or wrong access token', name: 'Unauthorized' } }), 'application/json')
    const route = url.pathname.slice('/api/'.length)
    if (route === 'events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
      res.write(': connected\n\n')
      sse.add(res)
      req.on('close', () => sse.delete(res))
      return
    }
    if (route === 'file' && req.method === 'GET') {
      // Raw bytes of a file the user indexed or chose (e.g. to download an export).
      const p = url.searchParams.get('path') ?? ''
      try {
        const abs = services.allowPath(p, 'read')
        const st = fs.statSync(abs)
        if (!st.isFile()) throw new AccessDenied(p, 'read')
        return send(res, 200, new Uint8Array(fs.readFileSync(abs)), 'application/octet-stream')
      } catch (e) {
        return send(res, e instanceof AccessDenied ? 403 : 404, JSON.stringify(errorReply(e)), 'application/json')
      }
    }
    if (req.method !== 'POST') return send(res, 405, JSON.stringify({ error: { message: 'use POST', name: 'MethodNotAllowed' } }), 'application/json')
    let channel: string
    try {
      channel = decodeURIComponent(route)
    } catch {
      return send(res, 400, JSON.stringify({ error: { message: 'malformed channel name', name: 'BadRequest' } }), 'application/json')
    }
    if (!services.has(channel)) return send(res, 404, JSON.stringify({ error: { message: `unknown channel ${channel}`, name: 'NotFound' } }), 'application/json')
    try {
      const body = await readBody(req)
      const payload = body.byteLength === 0 ? {} : isEnvelope(body) ? decodeEnvelope(body) : JSON.parse(new TextDecoder().decode(body))
      const result = await services.invoke(channel, payload as never)
      send(res, 200, encodeEnvelope(result ?? null), 'application/x-modbench')
    } catch (e) {
      const status = e instanceof AccessDenied ? 403 : e instanceof FormatError || e instanceof SyntaxError ? 422 : 500
      send(res, status, JSON.stringify(errorReply(e)), 'application/json')
    }
  }

  function handleStatic(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    let rel: string
    try {
      rel = decodeURIComponent(url.pathname)
    } catch {
      return send(res, 400, 'bad path', 'text/plain')
    }
    if (rel.includes('\0')) return send(res, 400, 'bad path', 'text/plain')
    if (rel === '/' || rel === '') rel = '/index.html'
    const file = path.resolve(staticDir, '.' + rel)
    if (!file.startsWith(staticDir + path.sep)) return send(res, 403, 'forbidden', 'text/plain')
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return send(res, 404, 'not found', 'text/plain')
      const type = MIME[path.extname(file)] ?? 'application/octet-stream'
      res.writeHead(200, { 'content-type': type, 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' })
      fs.createReadStream(file).pipe(res)
    })
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname.startsWith('/api/')) {
      handleApi(req, res, url).catch((e) => send(res, 500, JSON.stringify(errorReply(e)), 'application/json'))
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      handleStatic(req, res, url)
    } else send(res, 405, 'method not allowed', 'text/plain')
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/?token=${token}`

  if (opts.indexSamplesWhenEmpty && catalog.sources().length === 0 && fs.existsSync(samplesDir())) {
    log('empty catalog: indexing the bundled samples')
    services.invoke('index:samples', {}).catch((e: Error) => log(`indexing samples failed: ${e.message}`))
  }

  return {
    url,
    token,
    port,
    services,
    async close() {
      services.dispose()
      for (const r of sse) r.end()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections?.()
      catalog.close()
    },
  }
}
