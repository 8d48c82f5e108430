/**
 * Every command that writes an output, as the fault-injection suites (tests/integration/faults-*)
 * drive them: its arguments for an output path, its inputs (which must stay byte-identical), an
 * output path that hits an input (the input itself or a file inside an input set/folder), and
 * whether the output is a file or a folder. Inputs are copies of resources/samples (built by the
 * fixture builders) in a folder of the test's own.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import * as path from 'node:path'
import { cli, repoRoot } from './cli'
import { buildModelArchive } from '../fixtures/gf/build-garc'

export interface Writer {
  name: string
  kind: 'file' | 'folder'
  /** The command line writing to `out`. */
  argv(out: string): string[]
  /** A good output path's file name (the file writers' suffix matters: `.motlist.663`). */
  outName: string
  /** Files and folders the command reads: never modified. */
  inputs: string[]
  /** An `--out` that is an input or lies inside one (refused even with --force). */
  hitsInput: string
  /** For an output that differs run to run (a zip's timestamps): whether `out` is a complete one. */
  complete?: (out: string) => boolean
}

/** `out` holds what a complete run writes: `want` (a snapshot), or for a varying output a complete one. */
export function isComplete(w: Writer, out: string, want: string): boolean {
  return w.complete ? w.complete(out) : snapshot(out) === want
}

/** A whole zip: its end-of-central-directory record (no comment) closes the file (APPNOTE 4.3.16). */
function zipComplete(p: string): boolean {
  const b = statSync(p, { throwIfNoEntry: false })?.isFile() ? readFileSync(p) : null
  return !!b && b.length >= 22 && b.readUInt32LE(b.length - 22) === 0x06054b50 && b.readUInt32LE(b.length - 6) + b.readUInt32LE(b.length - 10) === b.length - 22
}

const SAMPLES = path.join(repoRoot, 'resources', 'samples')

/** The writers' names, in makeWriters' order (known before any setup runs: test names). */
export const WRITER_NAMES = [
  'export ID', 'gf extract', 'gf replace', 'gf export', 'gf export-all', 're export', 're import',
  're pose2motlist', 're motion2pose', 're pack-mod', 'snap export', 'snap actor', 'stadium export',
  'gf garc extract', 'gf garc pack',
  // main's writer forms with inputs of their own: replacement PNGs, an archive set, a skeleton, an original
  'gf replace --png-folder', 'gf replace GARC#N', 'gf export --png-folder', 're export --skeleton', 're import --into',
] as const

/** Copies the samples into `dir`, indexes the GF set into a catalog and returns every writer. */
export async function makeWriters(dir: string): Promise<Writer[]> {
  const set = path.join(dir, 'sets', 'pm0999')
  mkdirSync(path.dirname(set), { recursive: true })
  cpSync(path.join(SAMPLES, 'gf-set'), set, { recursive: true })
  const re = path.join(dir, 're')
  cpSync(path.join(SAMPLES, 're'), re, { recursive: true })
  const motlist = path.join(re, 'sample.motlist.663')
  const pose = path.join(re, 'sample_wave_pose.json')
  const snap = path.join(dir, 'snap.z64.gz')
  cpSync(path.join(SAMPLES, 'snap-sample.z64.gz'), snap)
  const stadium = path.join(dir, 'stadium.z64.gz')
  cpSync(path.join(SAMPLES, 'stadium-sample.z64.gz'), stadium)
  const db = path.join(dir, 'catalog.db')
  const indexed = await cli(['index', set, '--db', db])
  if (indexed.code !== 0) throw new Error(`index failed: ${indexed.stderr}`)
  const rows = JSON.parse((await cli(['ls', '--db', db, '--json', '--kind', 'gf-model'])).stdout) as { id: number }[]
  const model = String(rows[0]!.id)
  const glb = path.join(dir, 'motion.glb')
  const exported = await cli(['re', 'export', motlist, '--out', glb])
  if (exported.code !== 0) throw new Error(`re export failed: ${exported.stderr}`)
  const sets = path.join(dir, 'sets')
  const garc = path.join(dir, 'a.garc')
  writeFileSync(garc, buildModelArchive(6).bytes)
  const pngs = path.join(dir, 'pngs') // the set's textures as gf extract names them: a --png-folder that matches
  const extracted = await cli(['gf', 'extract', set, '--out', pngs])
  if (extracted.code !== 0) throw new Error(`gf extract failed: ${extracted.stderr}`)
  const onePng = path.join(pngs, '1', readdirSync(path.join(pngs, '1')).sort()[0]!)
  const skel = path.join(dir, 'skel.motlist.663') // a motlist with bone headers: a --skeleton source
  cpSync(motlist, skel)
  return [
    { name: 'export ID', kind: 'file', outName: 'model.glb', argv: (o) => ['export', model, '--db', db, '--out', o], inputs: [set, db], hitsInput: path.join(set, '1.bin') },
    { name: 'gf extract', kind: 'folder', outName: 'png', argv: (o) => ['gf', 'extract', set, '--out', o], inputs: [set], hitsInput: set },
    { name: 'gf replace', kind: 'folder', outName: 'repacked', argv: (o) => ['gf', 'replace', set, '--out', o], inputs: [set], hitsInput: path.join(set, 'new') },
    { name: 'gf export', kind: 'file', outName: 'set.glb', argv: (o) => ['gf', 'export', set, '--out', o], inputs: [set], hitsInput: path.join(set, '0.bin') },
    { name: 'gf export-all', kind: 'folder', outName: 'all', argv: (o) => ['gf', 'export-all', sets, '--out', o], inputs: [sets], hitsInput: path.join(set, 'out') },
    { name: 're export', kind: 'file', outName: 'm.glb', argv: (o) => ['re', 'export', motlist, '--out', o], inputs: [motlist], hitsInput: motlist },
    { name: 're import', kind: 'file', outName: 'imported.motlist.663', argv: (o) => ['re', 'import', '--template', motlist, '--gltf', glb, '--animation', 'fixture_wave', '--out', o], inputs: [motlist, glb], hitsInput: motlist },
    { name: 're pose2motlist', kind: 'file', outName: 'posed.motlist.663', argv: (o) => ['re', 'pose2motlist', '--template', motlist, '--pose', pose, '--out', o], inputs: [motlist, pose], hitsInput: motlist },
    { name: 're motion2pose', kind: 'file', outName: 'pose.json', argv: (o) => ['re', 'motion2pose', motlist, '--motion', '0', '--out', o], inputs: [motlist], hitsInput: motlist },
    { name: 're pack-mod', kind: 'file', outName: 'mod.zip', argv: (o) => ['re', 'pack-mod', '--file', motlist, '--game-path', 'natives/stm/anim/', '--name', 'Wave', '--out', o], inputs: [motlist], hitsInput: motlist, complete: zipComplete },
    { name: 'snap export', kind: 'file', outName: 'beach.glb', argv: (o) => ['snap', 'export', snap, '--stage', 'beach', '--out', o], inputs: [snap], hitsInput: snap },
    { name: 'snap actor', kind: 'file', outName: 'actor.glb', argv: (o) => ['snap', 'actor', snap, '--stage', 'beach', '--id', '0', '--out', o], inputs: [snap], hitsInput: snap },
    { name: 'stadium export', kind: 'folder', outName: 'stadium', argv: (o) => ['stadium', 'export', stadium, '--out', o], inputs: [stadium], hitsInput: stadium },
    { name: 'gf garc extract', kind: 'folder', outName: 'garc-sets', argv: (o) => ['gf', 'garc', 'extract', garc, '--out', o], inputs: [garc], hitsInput: garc },
    { name: 'gf garc pack', kind: 'file', outName: 'packed.garc', argv: (o) => ['gf', 'garc', 'pack', garc, '--set', `0=${set}`, '--out', o], inputs: [garc, set], hitsInput: garc },
    { name: 'gf replace --png-folder', kind: 'folder', outName: 'from-pngs', argv: (o) => ['gf', 'replace', set, '--png-folder', pngs, '--out', o], inputs: [set, pngs], hitsInput: path.join(pngs, 'out') },
    { name: 'gf replace GARC#N', kind: 'file', outName: 'replaced.garc', argv: (o) => ['gf', 'replace', `${garc}#0`, '--out', o], inputs: [garc], hitsInput: garc },
    { name: 'gf export --png-folder', kind: 'file', outName: 'replaced.glb', argv: (o) => ['gf', 'export', set, '--png-folder', pngs, '--no-motions', '--out', o], inputs: [set, pngs], hitsInput: onePng },
    { name: 're export --skeleton', kind: 'file', outName: 'skel.glb', argv: (o) => ['re', 'export', motlist, '--skeleton', skel, '--out', o], inputs: [motlist, skel], hitsInput: skel },
    { name: 're import --into', kind: 'file', outName: 'into.motlist.663', argv: (o) => ['re', 'import', '--gltf', glb, '--into', motlist, '--out', o], inputs: [motlist, glb], hitsInput: motlist },
  ]
}

/** A path's content as one comparable string: a file's SHA-256, a folder's sorted `relpath sha` lines. */
export function snapshot(p: string): string {
  const st = statSync(p, { throwIfNoEntry: false })
  if (!st) return '(absent)'
  if (st.isFile()) return createHash('sha256').update(readFileSync(p)).digest('hex')
  const lines: string[] = []
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) walk(path.join(d, e.name), r)
      else lines.push(`${r} ${createHash('sha256').update(readFileSync(path.join(d, e.name))).digest('hex')}`)
    }
  }
  walk(p, '')
  return lines.join('\n')
}

/** The atomic writers' temp names beside `out` (`.NAME.PID.HEX.tmp`). */
export function tempsBeside(out: string): string[] {
  const base = path.basename(out)
  return readdirSync(path.dirname(out)).filter((n) => n.startsWith(`.${base}.`) && n.endsWith('.tmp'))
}
