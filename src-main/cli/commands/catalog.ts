import * as path from 'node:path'
import type { AssetRow } from '../../../src-shared/api/catalog'
import type { Catalog, ListItem } from '../../catalog/catalog'
import { defaultDbPath } from '../../catalog/paths'
import type { Command, CommandContext } from '../../plugin/command'
import { UsageError, intOption } from '../../plugin/command'

const dbOption = { db: { type: 'string' as const } }

function dbPath(ctx: CommandContext): string {
  const v = ctx.values.db
  return typeof v === 'string' && v ? path.resolve(v) : defaultDbPath()
}

/** The catalog (and so SQLite) is imported when a command opens it, not when the CLI starts. */
async function openCatalogAt(file: string): Promise<Catalog> {
  const { openCatalog } = await import('../../catalog/catalog')
  return openCatalog(file)
}

/** Runs `fn` on the catalog; SQLite's errors come out naming the catalog and what to do (catalog-errors.ts). */
export async function withCatalog<T>(ctx: CommandContext, fn: (c: Catalog) => T): Promise<T> {
  const c = await openCatalogAt(dbPath(ctx))
  try {
    return fn(c)
  } catch (e) {
    const { explainCatalogError } = await import('../../catalog/catalog-errors')
    throw explainCatalogError(e, c.path)
  } finally {
    c.close()
  }
}

/** The `ls`/`find` JSON shape of CLI.md: `{"id","kind","name","source","parent"}`. */
function listItem(a: AssetRow): ListItem {
  return { id: a.id, kind: a.kind, name: a.name, source: a.sourcePath ?? '', parent: a.parent }
}

/**
 * The text lines of `ls`/`find`: columns as wide as the widest id and kind (known before the rows),
 * printed in pieces as they come; "no assets" when there were none.
 */
function printAssetLines(ctx: CommandContext, rows: Iterable<ListItem>, widths: { id: number; kind: number }): void {
  const w = Math.max(2, widths.id)
  const k = Math.max(4, widths.kind)
  const lines: string[] = []
  let any = false
  for (const r of rows) {
    any = true
    lines.push(`${String(r.id).padStart(w)}  ${r.kind.padEnd(k)}  ${r.name}  (${path.basename(r.source)})`)
    if (lines.length >= 4096) ctx.out(lines.splice(0).join('\n'))
  }
  if (lines.length) ctx.out(lines.join('\n'))
  if (!any) ctx.err('no assets')
}

function printAssets(ctx: CommandContext, rows: AssetRow[]): void {
  const items = rows.map(listItem)
  if (ctx.json) return ctx.printJsonArray(items)
  printAssetLines(ctx, items, { id: Math.max(0, ...items.map((r) => String(r.id).length)), kind: Math.max(0, ...items.map((r) => r.kind.length)) })
}

/** Sleeps synchronously (inside a SQLite transaction, which is synchronous). */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

const index: Command = {
  name: 'index',
  summary: 'index files and folders (recursively) into the catalog',
  usage: 'index PATH... [--db FILE] [--force] [--json]',
  help: [
    'A file that cannot be read is recorded with its error and does not stop the rest.',
    'JSON: {"sources":[{"path","kind","status":"indexed"|"unchanged"|"error","assets":N,"error"?,"damaged"?:[…]}],"assets":N} (damaged: member files left out of a source indexed without them; exit 1)',
    'An unchanged file (same size, mtime and inode, or else the same content hash) is left alone;',
    '--force reads and re-indexes every file again (after an upgrade).',
    'Sources under an indexed folder whose files are gone are removed (listed under "removed").',
    'Exit code 1 when any source ended in error (the JSON still lists every source).',
  ].join('\n'),
  options: { ...dbOption, force: { type: 'boolean' }, 'progress-ndjson': { type: 'boolean' } },
  positionals: { min: 1, max: Infinity },
  async run(ctx) {
    const ndjson = ctx.values['progress-ndjson'] === true
    const bar = ndjson ? null : ctx.progress('indexing')
    const pauseMs = Number(process.env.MODBENCH_TEST_PAUSE_IN_TXN ?? 0)
    const catalog = await openCatalogAt(dbPath(ctx))
    try {
      const [{ indexPaths }, { explainCatalogError }] = await Promise.all([import('../../indexer/indexer'), import('../../catalog/catalog-errors')])
      const result = await indexPaths(catalog, ctx.positionals, {
        signal: ctx.signal,
        force: ctx.values.force === true,
        onProgress: (p) => {
          if (ndjson) ctx.err(JSON.stringify({ progress: p }))
          else if (p.phase === 'index' || p.phase === 'done') bar!.update(p.done, p.total, p.current ? path.basename(p.current) : undefined)
        },
        duringTransaction: pauseMs
          ? (src) => {
              ctx.err(`PAUSED-IN-TRANSACTION ${src}`)
              blockFor(pauseMs)
            }
          : undefined,
      }).catch((e: unknown) => {
        throw explainCatalogError(e, catalog.path)
      })
      bar?.end()
      if (ctx.json) ctx.printJson({ sources: result.sources.map((s) => ({ path: s.path, kind: s.kind, status: s.status, assets: s.assets, ...(s.error ? { error: s.error } : {}), ...(s.damaged ? { damaged: s.damaged } : {}) })), assets: result.assets, ...(result.cancelled ? { cancelled: true } : {}), ...(result.removed ? { removed: result.removed } : {}) })
      else {
        for (const s of result.sources) ctx.out(`${s.status.padEnd(9)} ${s.kind.padEnd(12)} ${String(s.assets).padStart(6)} assets  ${s.path}`)
        for (const r of result.removed ?? []) ctx.out(`removed   (file gone)                    ${r}`)
        ctx.out(`${result.sources.length} source(s), ${result.assets} asset(s)${result.removed ? `, ${result.removed.length} vanished source(s) removed` : ''}${result.cancelled ? ' (cancelled)' : ''}`)
      }
      // one line per failed source, naming its path once (the indexer's message usually leads with it)
      // and one per damaged part of a source indexed without it (the rest of it is usable): exit 1 too
      for (const s of result.sources) for (const e of s.error ? [s.error] : (s.damaged ?? [])) ctx.err(`error: ${e.includes(s.path) ? e : `${s.path}: ${e}`}`)
      return result.cancelled || result.sources.some((s) => s.status === 'error' || s.damaged?.length) ? 1 : 0
    } finally {
      catalog.close()
    }
  },
}

const ls: Command = {
  name: 'ls',
  summary: 'list assets',
  usage: 'ls [--db FILE] [--kind KIND] [--source PATH] [--json]',
  help: '--source takes a source path as index printed it, or a folder (every source under it).\nJSON: [{"id","kind","name","source","parent"}]',
  options: { ...dbOption, kind: { type: 'string' }, source: { type: 'string' } },
  async run(ctx) {
    const filter = { kind: ctx.values.kind as string | undefined, source: ctx.values.source as string | undefined }
    // Streamed a source at a time: memory and time per row stay flat at a million assets.
    await withCatalog(ctx, (c) => (ctx.json ? ctx.printJsonArray(c.listItems(filter)) : printAssetLines(ctx, c.listItems(filter), c.listWidths(filter))))
    return 0
  },
}

const find: Command = {
  name: 'find',
  summary: 'full-text search on asset names and tags',
  usage: 'find QUERY [--db FILE] [--limit N] [--json]',
  help: 'Every word matches as a prefix. JSON: same as ls.',
  options: { ...dbOption, limit: { type: 'string' } },
  positionals: { min: 1, max: Infinity },
  async run(ctx) {
    const limit = intOption(ctx, 'limit', 1000)!
    const rows = await withCatalog(ctx, (c) => c.search(ctx.positionals.join(' '), limit))
    printAssets(ctx, rows)
    return 0
  },
}

const info: Command = {
  name: 'info',
  summary: 'one asset with its metadata',
  usage: 'info ID [--db FILE] [--json]',
  help: 'JSON: {"id","kind","name","source","parent","locator","metadata","children"}',
  options: dbOption,
  positionals: { min: 1, max: 1 },
  run(ctx) {
    const id = Number(ctx.positionals[0])
    if (!Number.isInteger(id) || id <= 0) throw new UsageError(`ID must be a positive whole number (as printed by ls/find), got ${JSON.stringify(ctx.positionals[0])}`)
    return withCatalog(ctx, (c) => {
      const a = c.asset(id)
      if (!a) {
        ctx.err(`modbench info: no asset with id ${id} in ${c.path}`)
        return 1
      }
      const src = c.source(a.sourceId)
      const doc = { ...listItem(a), locator: a.locator, metadata: a.metadata, children: a.childCount, sourceKind: src?.kind, sourceMetadata: src?.metadata }
      if (ctx.json) ctx.printJson(doc)
      else {
        ctx.out(`${a.name}  [${a.kind}]  id ${a.id}`)
        ctx.out(`source:   ${a.sourcePath} (${src?.kind})`)
        if (a.parent !== null) ctx.out(`parent:   ${a.parent}`)
        ctx.out(`children: ${a.childCount}`)
        ctx.out(`locator:  ${JSON.stringify(a.locator)}`)
        for (const [k, v] of Object.entries(a.metadata)) ctx.out(`${k.padEnd(16)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      }
      return 0
    })
  },
}

const serve: Command = {
  name: 'serve',
  summary: 'browser mode: serve the app and its API on 127.0.0.1',
  usage: 'serve [--db FILE] [--port N] [--no-samples]',
  help: [
    'Serves the app (the renderer build, made on first use) and its API on 127.0.0.1 only, never another interface.',
    'Prints the URL with its per-run access token on the first stdout line (open it in a browser; every API',
    'request needs the token). Ctrl+C stops the server.',
  ].join('\n'),
  options: { ...dbOption, port: { type: 'string' }, 'no-samples': { type: 'boolean' } },
  optionHelp: {
    db: 'the catalog file (default: the per-user catalog, as for index/ls)',
    port: 'the port to listen on, 0–65535 (default 0: a free port)',
    'no-samples': 'do not index the bundled samples into an empty catalog',
    json: 'ignored (the URL is one line)',
  },
  async run(ctx) {
    const { startServer } = await import('../../transport/http-server')
    const port = intOption(ctx, 'port', 0)!
    if (port < 0 || port > 65535) throw new UsageError(`--port takes 0–65535 (0 picks a free port), got ${port}`)
    const server = await startServer({ dbPath: dbPath(ctx), port, indexSamplesWhenEmpty: ctx.values['no-samples'] !== true, log: (t) => ctx.err(t) })
    ctx.out(server.url)
    ctx.err(`modbench serve: open this URL in a browser; Ctrl+C stops the server.`)
    await new Promise<void>((resolve) => {
      const stop = () => resolve()
      ctx.signal.addEventListener('abort', stop)
      process.once('SIGTERM', stop)
    })
    await server.close()
    return 0
  },
}

export const catalogCommands: Command[] = [index, ls, find, info, serve]
