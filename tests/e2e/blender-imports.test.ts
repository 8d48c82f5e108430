/**
 * The real client imports every kind of export (issue 23 item 3: with game materials carried as
 * exact factors, baked base-colour textures and `extras.modbench.material`, "Blender still imports
 * every export"). The bundled samples are indexed into a temporary catalog; up to two assets of
 * every scene-bearing kind, the RE sample motlist, the demo and the material test card are exported as glb, and one
 * Blender 3.4 run (tests/helpers/blender-gltf.py, the importer's and exporter's default settings)
 * imports each and exports it again. Each job must report, the exported file must exist, and the
 * objects Blender made must include a mesh where the glb has one.
 *
 * Blender missing (or its Python without numpy) fails the test in CI (CI=true), and skips it with
 * a message elsewhere (as tests/e2e/re-blender.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { blenderMissing, inCi, runBlenderJobs } from '../helpers/blender'
import { cli as runCli, repoRoot } from '../helpers/cli'
import { sceneKinds } from '../../src-main/services/scene-builders'
import { sceneToGlb } from '../../src-shared/export/gltf'
import { materialCardScene } from '../../src-shared/scene/material-card'
import { splitGlb } from '../fixtures/scene/glb-container'

const missing = blenderMissing()
if (missing && !inCi) console.warn(`blender-imports: ${missing}; skipped (CI installs blender and python3-numpy and runs it)`)

let dir: string
const p = (n: string) => path.join(dir, n)
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-blender-all-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe.skipIf(!!missing && !inCi)('Blender 3.4 imports every kind of export', () => {
  it('samples of every scene-bearing kind, the demo and the material test card: imported and exported again with default settings', async () => {
    expect(missing, "CI must install Debian's blender and python3-numpy (.ci/run)").toBeNull()
    const db = p('catalog.sqlite')
    const idx = await runCli(['index', path.join(repoRoot, 'resources', 'samples'), '--db', db])
    expect(idx.code, idx.stderr).toBe(0)
    const all = (await runCli(['ls', '--db', db, '--json'])).json() as { id: number; kind: string; name: string }[]
    const kinds = new Set(sceneKinds())
    const picked: { id: number; kind: string; name: string }[] = []
    for (const k of kinds) picked.push(...all.filter((a) => a.kind === k).slice(0, 2))
    // the catalog's scene kinds cover Snap, Stadium and GF (RE is exported by `re export` below)
    expect(new Set(picked.map((a) => a.kind.split('-')[0]))).toEqual(new Set(['gf', 'snap', 'stadium']))
    const jobs: { in: string; out: string; fps: number; what: string; meshes: number }[] = []
    const add = (file: string, what: string) => {
      const meshes = (splitGlb(new Uint8Array(fs.readFileSync(file))).json.meshes ?? []).length as number
      jobs.push({ in: file, out: `${file.slice(0, -4)}-blender.glb`, fps: 30, what, meshes })
    }
    for (const a of picked) {
      const out = p(`${a.kind}-${a.id}.glb`)
      const r = await runCli(['export', String(a.id), '--out', out, '--db', db])
      expect(r.code, `${a.kind} ${a.id} ${a.name}: ${r.stderr}`).toBe(0)
      add(out, `${a.kind} ${a.name}`)
    }
    const re = await runCli(['re', 'export', path.join(repoRoot, 'resources', 'samples', 're', 'sample.motlist.663'), '--out', p('re.glb')])
    expect(re.code, re.stderr).toBe(0)
    add(p('re.glb'), 're motlist')
    expect((await runCli(['export', 'demo', '--out', p('demo.glb')])).code).toBe(0)
    add(p('demo.glb'), 'demo')
    fs.writeFileSync(p('material-card.glb'), sceneToGlb(materialCardScene()))
    add(p('material-card.glb'), 'material test card')

    fs.writeFileSync(p('jobs.json'), JSON.stringify(jobs.map(({ in: i, out, fps }) => ({ in: i, out, fps }))))
    const run = runBlenderJobs(p('jobs.json'))
    expect(run.status, `blender: ${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`).toBe(0)
    const reports = run.stdout.match(/^JOB \d+: .*$/gm) ?? []
    expect(reports).toHaveLength(jobs.length)
    jobs.forEach((j, i) => {
      expect(fs.existsSync(j.out), `${j.what}: Blender wrote no glb`).toBe(true)
      // what came back has meshes where ours had them (Blender made objects of them)
      const back = splitGlb(new Uint8Array(fs.readFileSync(j.out))).json
      if (j.meshes > 0) expect((back.meshes ?? []).length, `${j.what}: ${reports[i]}`).toBeGreaterThan(0)
    })
  })
})
