/**
 * Robustness of the `.mesh` reader (spec re-motlist §15): mutated synthetic meshes of every layout
 * (A, B, RE8, C) through `readMesh` + `describeMesh` + `meshGeometry` of every LOD, and through
 * `re mesh --json` and `re export --skeleton` on the CLI. Each case returns or fails with a
 * FormatError / exit 1 naming the file (and, from the reader, a structure and an offset); nothing
 * hangs, crashes or writes an output on failure; inputs are never modified. Fields to mutate are
 * learnt by tracing the reads of the unmodified meshes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { FormatError } from '../../src-shared/binary'
import { describeMesh, meshGeometry, readMesh } from '../../src-shared/formats/re'
import { Rng, SEED, Tally, cases, expectCliCase, expectReaderOk, mutate, sweepCases, traceReads, writeCase, type Field } from '../helpers/fuzz'
import { MESH_SUFFIX, characterMesh, type MeshFixtureLayout } from '../fixtures/re/mesh'
import { buildGameMotlist } from '../fixtures/re/game-motlist'

const LAYOUTS: MeshFixtureLayout[] = ['A', 'B', 'RE8', 'C']
const inputs: Record<string, Uint8Array> = {}
const fileName = (l: MeshFixtureLayout) => `pl_${l}.mesh.${MESH_SUFFIX[l]}`
let traced: Record<string, Field[]>
let dir: string

function open(bytes: Uint8Array, name: string): void {
  const m = readMesh(bytes, name)
  describeMesh(m)
  for (let l = 0; l < (m.lods?.lods.length ?? 0); l++) meshGeometry(m, l)
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-remesh-'))
  for (const l of LAYOUTS) inputs[fileName(l)] = characterMesh(l)
  traced = await traceReads(inputs, () => {
    for (const [name, b] of Object.entries(inputs)) open(b, name)
  })
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('mutated meshes through the reader', () => {
  it('traced the structure fields of every layout', () => {
    for (const name of Object.keys(inputs)) expect(traced[name]!.length, name).toBeGreaterThan(100)
  })

  it('every layout: mutations return or throw a FormatError naming file, structure and offset', () => {
    const rng = new Rng(0x3e5e0000 + SEED)
    const tally = new Tally()
    const per = cases(300)
    for (const [name, b] of Object.entries(inputs)) {
      for (let i = 0; i < per; i++) {
        const m = mutate(b, traced[name]!, rng, { little: true })
        const label = `${name} case ${i}: ${m.label}`
        tally.add(expectReaderOk(label, () => {
          try {
            open(m.bytes, name)
          } catch (e) {
            if (e instanceof FormatError) {
              expect(e.structure, `${label}: ${e.message}`).toBeTruthy()
              expect(e.offset, `${label}: ${e.message}`).toBeTypeOf('number')
            }
            throw e
          }
        }, name))
      }
    }
    tally.expectShares('mesh reader', { ok: 0.3, error: 0.15 }) // seed 0: 67 % ok, 33 % errors
  })

  it('truncation at every traced field boundary and every u16/u32 field at its extremes', () => {
    const tally = new Tally()
    for (const [name, b] of Object.entries(inputs)) for (const c of sweepCases(name, b, traced[name]!)) tally.add(expectReaderOk(c.label, () => open(c.bytes, name), name))
    tally.expectShares('mesh sweep', { ok: 0.25, error: 0.2 }) // fixed sweep: 55 % ok, 45 % errors
  })
})

describe('mutated meshes through the CLI', () => {
  it('re mesh --json and re export --skeleton: exit 0 or 1 naming the mesh, nothing written on failure, inputs unchanged', async () => {
    const rng = new Rng(0x3e5e1000 + SEED)
    const tally = new Tally()
    const motlist = await writeCase(dir, 'anim.motlist.663', buildGameMotlist())
    const n = cases(120)
    for (let i = 0; i < n; i++) {
      const layout = rng.pick(LAYOUTS)
      const base = fileName(layout)
      const m = mutate(inputs[base]!, traced[base]!, rng, { little: true })
      const name = `case-${String(i).padStart(3, '0')}.mesh.${MESH_SUFFIX[layout]}`
      const p = await writeCase(dir, name, m.bytes)
      const out = path.join(dir, `out-${i}.glb`)
      const argv = rng.int(2) ? ['re', 'mesh', p, '--json'] : ['re', 'export', motlist, '--skeleton', p, '--out', out, '--json']
      const r = await expectCliCase(`${argv[1]} ${layout} case ${i}: ${m.label}`, argv, [name], [out], [[p, m.bytes]])
      tally.add(r.code)
      rmSync(p)
      rmSync(out, { force: true })
    }
    tally.expectShares('re mesh CLI', { ok: 0.25, error: 0.2 }) // seed 0: 55 % ok, 45 % errors
  })
})
