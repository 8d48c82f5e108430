/** Browser mode's plain replies and the built renderer's static files (split from http-server.ts). */
import type * as http from 'node:http'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { CSP } from './csp'

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

/** A whole reply, never cached, never sniffed. */
export function send(res: http.ServerResponse, status: number, body: Uint8Array | string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  res.end(body)
}

/** A file of `staticDir` (the built renderer), with the app's CSP; `/` is `/index.html`. */
export function serveStatic(staticDir: string, res: http.ServerResponse, url: URL): void {
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
