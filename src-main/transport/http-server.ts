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
import type { Channel } from '../../src-shared/api'
import { ensureRendererBuilt, rendererDir } from './renderer-build'
import { send, serveStatic } from './http-static'

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

/** What the request handlers share: the services, the run's token, the open event streams, the port. */
interface ServerState {
  services: Services
  staticDir: string
  tokenBuf: Buffer
  sse: Set<http.ServerResponse>
  port: number
}

const sendJson = (res: http.ServerResponse, status: number, body: unknown) => send(res, status, JSON.stringify(body), 'application/json')

function authorised(st: ServerState, req: http.IncomingMessage, url: URL): boolean {
  const given = (req.headers['x-modbench-token'] as string | undefined) ?? url.searchParams.get('token') ?? ''
  const b = Buffer.from(given)
  return b.length === st.tokenBuf.length && timingSafeEqual(b, st.tokenBuf)
}

/** `GET /api/events`: the services' events as a server-sent event stream. */
function openEventStream(st: ServerState, req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
  res.write(': connected\n\n')
  st.sse.add(res)
  req.on('close', () => st.sse.delete(res))
}

/** `GET /api/file`: raw bytes of a file the user indexed or chose (e.g. to download an export). */
function sendAllowedFile(st: ServerState, res: http.ServerResponse, url: URL): void {
  const p = url.searchParams.get('path') ?? ''
  try {
    const abs = st.services.allowPath(p, 'read')
    const stat = fs.statSync(abs)
    if (!stat.isFile()) throw new AccessDenied(p, 'read')
    return send(res, 200, new Uint8Array(fs.readFileSync(abs)), 'application/octet-stream')
  } catch (e) {
    return sendJson(res, e instanceof AccessDenied ? 403 : 404, errorReply(e))
  }
}

/** 413 for a body over the channel's limit, refused unread. */
function refuseTooLarge(req: http.IncomingMessage, res: http.ServerResponse, channel: string, limit: number): void {
  // Refused unread: the connection closes after the reply, so the rest is never kept. What
  // still arrives for a moment is discarded unbuffered (resume) rather than cut at once: a
  // socket destroyed with bytes unread sends a reset, which can make the client drop the
  // reply it has not read yet (seen under load).
  res.once('finish', () => {
    req.resume()
    setTimeout(() => req.destroy(), 1000).unref()
  })
  res.setHeader('connection', 'close')
  return sendJson(res, 413, { error: { message: `${channel}: a request body may have at most ${limit} bytes`, name: 'PayloadTooLarge', code: 'too-large' } })
}

/** Decodes the body, calls the channel and answers its result (an MBV1 envelope) or its error. */
async function invokeChannel(st: ServerState, res: http.ServerResponse, channel: Channel, body: Uint8Array): Promise<void> {
  try {
    let payload: unknown
    try {
      payload = decodeBody(body)
    } catch (e) {
      return sendJson(res, 422, errorReply(e instanceof SyntaxError ? e : new SyntaxError((e as Error).message)))
    }
    const t0 = performance.now()
    const result = await st.services.invoke(channel, checkRequest(channel, payload))
    const t1 = performance.now()
    const reply = encodeEnvelope(result ?? null)
    // the server's own share of a call's time, seen in the page's resource timing (`npm run bench views`)
    res.setHeader('server-timing', `app;dur=${(t1 - t0).toFixed(1)}, encode;dur=${(performance.now() - t1).toFixed(1)}`)
    send(res, 200, reply, 'application/x-modbench')
  } catch (e) {
    send(res, statusOf(e), JSON.stringify(errorReply(e)), 'application/json')
  }
}

/** `/api/…`: the token, then the event stream, a file, or a POSTed call of a known channel. */
async function handleApi(st: ServerState, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  if (!authorised(st, req, url)) return sendJson(res, 401, { error: { message: 'missing or wrong access token', name: 'Unauthorized' } })
  const route = url.pathname.slice('/api/'.length)
  if (route === 'events' && req.method === 'GET') return openEventStream(st, req, res)
  if (route === 'file' && req.method === 'GET') return sendAllowedFile(st, res, url)
  if (req.method !== 'POST') return sendJson(res, 405, { error: { message: 'use POST', name: 'MethodNotAllowed' } })
  let channel: string
  try {
    channel = decodeURIComponent(route)
  } catch {
    return sendJson(res, 400, { error: { message: 'malformed channel name', name: 'BadRequest' } })
  }
  if (!st.services.has(channel)) return sendJson(res, 404, { error: { message: `unknown channel ${channel}`, name: 'NotFound' } })
  const limit = requestBodyLimit(channel)
  const body = await readBody(req, limit)
  if (!body) return refuseTooLarge(req, res, channel, limit)
  return invokeChannel(st, res, channel, body)
}

/** Every request: the Host guard, then the API (behind the Origin guard) or a static file. */
function handleRequest(st: ServerState, req: http.IncomingMessage, res: http.ServerResponse): void {
  const port = st.port
  // DNS rebinding: a page of another site that resolves its name to 127.0.0.1 sends its own Host.
  const host = (req.headers.host ?? '').toLowerCase()
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 421, `this server answers to 127.0.0.1:${port} and localhost:${port} only`, 'text/plain')
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  if (url.pathname.startsWith('/api/')) {
    // Another site's page (its Origin) never reaches the API; the app's own page and non-browser clients do.
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      return sendJson(res, 403, { error: { message: `requests from ${origin} are refused`, name: 'ForeignOrigin' } })
    }
    handleApi(st, req, res, url).catch((e) => sendJson(res, 500, errorReply(e)))
  } else if (req.method === 'GET' || req.method === 'HEAD') {
    serveStatic(st.staticDir, res, url)
  } else send(res, 405, 'method not allowed', 'text/plain')
}

/** Listens on 127.0.0.1 (`port` 0: any free port) and answers the port taken. */
async function listenLoopback(server: http.Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return (server.address() as AddressInfo).port
}

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
  const st: ServerState = { services, staticDir, tokenBuf: Buffer.from(token), sse: new Set(), port: 0 }

  services.on((event, payload) => {
    const data = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`
    for (const res of st.sse) res.write(data)
  })

  const server = http.createServer((req, res) => handleRequest(st, req, res))
  const port = (st.port = await listenLoopback(server, opts.port ?? 0))
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
      for (const r of st.sse) r.end()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections?.()
      catalog.close()
    },
  }
}
