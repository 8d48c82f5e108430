/**
 * Browser mode's server refuses what it should (issue 24): a foreign Host (DNS rebinding) with
 * 421, a foreign Origin on the API with 403, a body of the wrong types with 400 naming the field
 * (never a raw TypeError or a 500), an oversized body with 413 before it is read; the renderer's
 * static files are answered whole (issue 26). Real loopback HTTP against `startServer` on an
 * empty catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as http from 'node:http'
import * as net from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { startServer, type RunningServer } from '../../../../src-main/transport/http-server'
import { decodeEnvelope, encodeEnvelope } from '../../../../src-shared/transport/codec'

let tmp: string
let server: RunningServer

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-http-guards-'))
  const staticDir = path.join(tmp, 'static')
  fs.mkdirSync(staticDir)
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>modbench</title>')
  server = await startServer({ dbPath: path.join(tmp, 'c.sqlite'), port: 0, staticDir })
})
afterAll(async () => {
  await server?.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

interface Reply {
  status: number
  body: string
}

function request(opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array; setHost?: boolean }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, setHost: opts.setHost ?? true }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

const api = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  request({ method: 'POST', path: `/api/${channel}`, headers: { 'x-modbench-token': server.token, 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })

const errorOf = (r: Reply) => (JSON.parse(r.body) as { error: { message: string; name: string; field?: string; code?: string } }).error

describe('Host header', () => {
  it('answers 127.0.0.1:PORT and localhost:PORT, refuses any other host with 421', async () => {
    const port = server.port
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await request({ path: '/', headers: { host } })).status, host).toBe(200)
      expect((await api('catalog:sources', {}, { host })).status, host).toBe(200)
    }
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `localhost.evil.example:${port}`, `0.0.0.0:${port}`, `[::1]:${port}`]) {
      expect((await request({ path: '/', headers: { host } })).status, host).toBe(421)
      const r = await api('catalog:sources', {}, { host })
      expect(r.status, host).toBe(421)
      expect(r.body).not.toContain('[')
    }
    // No Host header at all: Node's server refuses an HTTP/1.1 request without one (400) before it reaches ours.
    expect((await request({ path: '/', setHost: false })).status).toBe(400)
  })
})

describe('Origin header on /api', () => {
  it('serves its own page and clients without Origin, refuses other origins with 403', async () => {
    const port = server.port
    expect((await api('catalog:sources', {})).status).toBe(200)
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) expect((await api('catalog:sources', {}, { origin })).status, origin).toBe(200)
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, `https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, 'null', `http://127.0.0.1:${port}.evil.example`]) {
      const r = await api('catalog:sources', {}, { origin })
      expect(r.status, origin).toBe(403)
      expect(errorOf(r).message).toContain(origin)
      // The event stream and file route too.
      expect((await request({ path: `/api/events?token=${server.token}`, headers: { origin } })).status, origin).toBe(403)
    }
  })
})

describe('request bodies against the contract', () => {
  const cases: [channel: string, body: unknown, field: string][] = [
    ['catalog:asset', { id: 'one' }, 'id'],
    ['catalog:asset', {}, 'id'],
    ['catalog:asset', { id: -1 }, 'id'],
    ['catalog:asset', { id: 1.5 }, 'id'],
    ['catalog:children', { sourceId: 1, parent: 'x' }, 'parent'],
    ['catalog:children', { sourceId: 1 }, 'parent'],
    ['catalog:search', { query: 5 }, 'query'],
    ['catalog:search', { query: 'a', limit: '10' }, 'limit'],
    ['index:start', { paths: 'C:/x' }, 'paths'],
    ['index:start', { paths: ['/a', 7] }, 'paths[1]'],
    ['fs:grant', { path: null }, 'path'],
    ['fs:grant', { path: '/tmp/a\u0000b' }, 'path'],
    ['fs:stat', { path: '' }, 'path'],
    ['scene:open', { id: 'demo2' }, 'id'],
    ['scene:export', { id: 'demo', out: ['x'] }, 'out'],
    ['scene:export', { id: 'demo', out: '/x.glb', overwrite: 'yes' }, 'overwrite'],
    ['gf:texture', { set: '/s', file: '1.bin', entry: '0' }, 'entry'],
    ['gf:repack', { set: '/s', out: '/o', replacements: [{ file: '1.bin', entry: 0 }, { file: 2, entry: 0 }] }, 'replacements[1].file'],
    ['gf:repack', { set: '/s', out: '/o', replacements: [{ file: '1.bin', entry: 0, png: [137, 80] }] }, 'replacements[0].png'],
    ['gf:model', { set: '/s', lod: 'medium' }, 'lod'],
    ['re:sampleMotion', { path: '/m', motion: 0, frame: 'NaN' }, 'frame'],
    ['re:savePose', { template: '/t', out: '/o', pose: { name: 'p', bones: ['a'], rotations: [0, 0, 0, 1] } }, 'pose.rotations'],
    ['re:exportPose', { out: '/o', poses: [], order: 'XXX' }, 'order'],
    ['stadium:export', { id: 3 }, 'out'],
    ['snap:track', { path: '/r', stage: 'beach', samples: {} }, 'samples'],
    ['catalog:sources', [], ''],
    ['catalog:asset', '"hello"', ''],
    ['catalog:asset', null, ''],
  ]
  it.each(cases)('%s %j: 400 naming `%s`', async (channel, body, field) => {
    const r = await api(channel, body)
    expect(r.status, r.body).toBe(400)
    const e = errorOf(r)
    expect(e.name).toBe('BadRequest')
    expect(e.code).toBe('bad-request')
    expect(e.field).toBe(field)
    expect(e.message).toContain(channel)
    if (field) expect(e.message).toContain(`\`${field}\``)
    expect(e.message).not.toMatch(/TypeError|Cannot read|undefined/)
  })

  it('a right body in the binary envelope passes (typed arrays included) and a wrong typed array does not', async () => {
    const ok = await request({ method: 'POST', path: '/api/catalog:search', headers: { 'x-modbench-token': server.token }, body: encodeEnvelope({ query: 'x', limit: 3 }) })
    expect(ok.status).toBe(200)
    const wrong = await request({
      method: 'POST',
      path: '/api/re:savePose',
      headers: { 'x-modbench-token': server.token },
      body: encodeEnvelope({ template: '/t', out: '/o', pose: { name: 'p', bones: ['a'], rotations: new Float32Array(4) } }),
    })
    expect(wrong.status).toBe(400)
    expect(errorOf(wrong).field).toBe('pose.rotations')
    expect(errorOf(wrong).message).toContain('Float32Array')
    // An envelope whose typed array runs past the body is unreadable, not a crash.
    const bytes = encodeEnvelope({ png: new Uint8Array(16) })
    const cut = bytes.subarray(0, bytes.byteLength - 8)
    const bad = await request({ method: 'POST', path: '/api/gf:model', headers: { 'x-modbench-token': server.token }, body: cut })
    expect(bad.status).toBe(422)
  })

  it('a valid request still reaches the service', async () => {
    const r = await request({ method: 'POST', path: '/api/catalog:sources', headers: { 'x-modbench-token': server.token }, body: '' })
    expect(r.status).toBe(200)
    const search = await request({ method: 'POST', path: '/api/catalog:search', headers: { 'x-modbench-token': server.token }, body: encodeEnvelope({ query: 'x' }) })
    expect(decodeEnvelope(Buffer.from(search.body, 'latin1'))).toEqual([])
  })
})

describe('body size', () => {
  /** Sends headers and `sent` bytes of a body, then waits for the reply without sending the rest. */
  function partial(headers: Record<string, string>, sent: number): Promise<{ status: number; body: string; reset: boolean }> {
    return new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: server.port })
      let data = ''
      s.on('data', (c: Buffer) => (data += c.toString('latin1')))
      const done = (reset: boolean) => {
        const status = Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0)
        resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4), reset })
      }
      s.on('close', () => done(false))
      s.on('error', () => done(true))
      s.setTimeout(5000, () => s.destroy()) // a server that waits for the whole body never answers
      const head = [`POST /api/catalog:search HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `x-modbench-token: ${server.token}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n')
      s.write(head)
      if (headers['transfer-encoding'] === 'chunked') {
        // Chunks of 1 MiB until `sent` bytes have gone.
        const chunk = Buffer.alloc(1 << 20, 0x20)
        for (let n = 0; n < sent; n += chunk.length) s.write(`${chunk.length.toString(16)}\r\n`), s.write(chunk), s.write('\r\n')
      } else if (sent) s.write(Buffer.alloc(sent, 0x20))
    })
  }

  it('a declared Content-Length over the limit is refused with 413 before any body byte is sent', async () => {
    const r = await partial({ 'content-length': String(1024 ** 3), 'content-type': 'application/json' }, 0)
    expect(r.status).toBe(413)
    expect(r.body).toContain('PayloadTooLarge')
  })

  it('a chunked body is counted while it streams and refused with 413 once over the limit', async () => {
    // 12 MiB of chunks to a channel limited to 8 MiB: the reply comes before the body ends.
    const r = await partial({ 'transfer-encoding': 'chunked', 'content-type': 'application/json' }, 12 << 20)
    expect(r.status).toBe(413)
  })

  it('a body within the limit is read', async () => {
    const r = await api('catalog:search', JSON.stringify({ query: 'x', pad: 'y'.repeat(1 << 20) }))
    expect(r.status).toBe(200)
  })
})

describe('static files', () => {
  it('answers a file with its bytes, type and CSP, whole; a missing file or a folder with 404', async () => {
    const dir = path.join(tmp, 'static', 'assets')
    fs.mkdirSync(dir, { recursive: true })
    const big = 'x'.repeat(3 << 20) // over the 1 MiB reads the files were streamed in before
    fs.writeFileSync(path.join(dir, 'a.js'), `export const a = '${big}'\n`)
    const base = `http://127.0.0.1:${server.port}`
    const r = await fetch(`${base}/assets/a.js`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/javascript/)
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await r.text()).toBe(`export const a = '${big}'\n`)
    expect((await fetch(`${base}/assets/b.js`)).status).toBe(404)
    expect((await fetch(`${base}/assets`)).status).toBe(404)
    expect((await fetch(`${base}/`)).status).toBe(200)
  })
})
