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
import { BadRequest } from '../../src-shared/api/schema'
import { checkRequest, requestBodyLimit } from '../../src-shared/api/requests'
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


/**
 * The body of a request, refused (null) once it is over `limit` bytes: a declared Content-Length
 * over the limit before a byte is read, a streamed (chunked) body as soon as the count passes it;
 * the rest is never read.
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Uint8Array | null> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let n = 0
    const onData = (c: Buffer) => {
      n += c.length
      if (n <= limit) return void chunks.push(c)
      req.off('data', onData)
      req.pause()
      chunks.length = 0
      resolve(null)
    }
    req.on('data', onData)
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
    req.on('error', reject)
  })
}

/** The request's body decoded (MBV1 envelope or JSON; empty is `{}`), or why it cannot be read. */
function decodeBody(body: Uint8Array): unknown {
  if (body.byteLength === 0) return {}
  return isEnvelope(body) ? decodeEnvelope(body) : JSON.parse(new TextDecoder().decode(body))
}

/** HTTP status of an error a request ended in. */
function statusOf(e: unknown): number {
  if (e instanceof BadRequest) return 400
  if (e instanceof AccessDenied) return 403
  if ((e as { code?: unknown }).code === 'exists') return 409
  if (e instanceof FormatError || e instanceof SyntaxError) return 422
  return 500
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
    const limit = requestBodyLimit(channel)
    const body = await readBody(req, limit)
    if (!body) {
      // Refused unread: the connection closes after the reply, so the rest is never kept. What
      // still arrives for a moment is discarded unbuffered (resume) rather than cut at once: a
      // socket destroyed with bytes unread sends a reset, which can make the client drop the
      // reply it has not read yet (seen under load).
      res.once('finish', () => {
        req.resume()
        setTimeout(() => req.destroy(), 1000).unref()
      })
      res.setHeader('connection', 'close')
      return send(res, 413, JSON.stringify({ error: { message: `${channel}: a request body may have at most ${limit} bytes`, name: 'PayloadTooLarge', code: 'too-large' } }), 'application/json')
    }
    try {
      let payload: unknown
      try {
        payload = decodeBody(body)
      } catch (e) {
        return send(res, 422, JSON.stringify(errorReply(e instanceof SyntaxError ? e : new SyntaxError((e as Error).message))), 'application/json')
      }
      const t0 = performance.now()
      const result = await services.invoke(channel, checkRequest(channel, payload))
      const t1 = performance.now()
      const reply = encodeEnvelope(result ?? null)
      // the server's own share of a call's time, seen in the page's resource timing (`npm run bench views`)
      res.setHeader('server-timing', `app;dur=${(t1 - t0).toFixed(1)}, encode;dur=${(performance.now() - t1).toFixed(1)}`)
      send(res, 200, reply, 'application/x-modbench')
    } catch (e) {
      send(res, statusOf(e), JSON.stringify(errorReply(e)), 'application/json')
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
    // Read at once (the renderer's files are at most a few MB, local): a file asked for while a
    // scene is being built goes out in the turn its request is read, not 3 turns (stat, open,
    // read) later, each waiting behind the build (issue 26).
    let body: Buffer
    try {
      if (!fs.statSync(file).isFile()) return send(res, 404, 'not found', 'text/plain')
      body = fs.readFileSync(file)
    } catch {
      return send(res, 404, 'not found', 'text/plain')
    }
    const type = MIME[path.extname(file)] ?? 'application/octet-stream'
    res.writeHead(200, { 'content-type': type, 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' })
    res.end(body)
  }

  let port = 0
  const server = http.createServer((req, res) => {
    // DNS rebinding: a page of another site that resolves its name to 127.0.0.1 sends its own Host.
    const host = (req.headers.host ?? '').toLowerCase()
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 421, `this server answers to 127.0.0.1:${port} and localhost:${port} only`, 'text/plain')
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname.startsWith('/api/')) {
      // Another site's page (its Origin) never reaches the API; the app's own page and non-browser clients do.
      const origin = req.headers.origin
      if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
        return send(res, 403, JSON.stringify({ error: { message: `requests from ${origin} are refused`, name: 'ForeignOrigin' } }), 'application/json')
      }
      handleApi(req, res, url).catch((e) => send(res, 500, JSON.stringify(errorReply(e)), 'application/json'))
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      handleStatic(req, res, url)
    } else send(res, 405, 'method not allowed', 'text/plain')
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port
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
