/**
 * Robustness of `re import` (glTF → motlist) and `re export` (motlist → glb): mutated copies of
 * a glb exported from the bundled RE sample (bytes of the GLB header, chunks and BIN data;
 * structural edits of its JSON: counts, offsets, indices, types, interpolation, missing keys),
 * and mutated copies of the sample motlist for the export. Every case exits 0 or 1 with a
 * FormatError naming the input, and leaves no output file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { Rng, SEED, Tally, cases, expectCliCase, mutate, nonZeroWords, traceReads, writeCase, type Field } from '../helpers/fuzz'
import { cli, repoRoot } from '../helpers/cli'
import { joinGlb, splitGlb } from '../fixtures/scene/glb-container'

const SAMPLE = path.join(repoRoot, 'resources', 'samples', 're', 'sample.motlist.663')
let dir: string
let glb: Uint8Array
let motlist: Uint8Array
let motFields: Field[]

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-regltf-'))
  motlist = new Uint8Array(readFileSync(SAMPLE))
  const out = path.join(dir, 'base.glb')
  expect((await cli(['re', 'export', SAMPLE, '--out', out])).code).toBe(0)
  glb = new Uint8Array(readFileSync(out))
  const fields = await traceReads({ motlist }, async () => {
    expect((await cli(['re', 'export', SAMPLE, '--out', path.join(dir, 'trace.glb')])).code).toBe(0)
  })
  motFields = fields.motlist!
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))


const HOSTILE: unknown[] = [null, -1, 0, 1e9, 2 ** 32, 0.5, 'x', 'VEC4', 'MAT4', 'CUBICSPLINE', 'STEP', NaN, [], {}, true, 5126, 5121]

/** One structural edit of the glTF JSON: a field of an accessor, bufferView, sampler, channel or node. */
function mutateJson(json: any, rng: Rng): string {
  const groups: [string, string[]][] = [
    ['accessors', ['count', 'byteOffset', 'bufferView', 'componentType', 'type', 'normalized', 'min', 'max']],
    ['bufferViews', ['byteOffset', 'byteLength', 'byteStride', 'buffer']],
    ['buffers', ['byteLength']],
    ['nodes', ['children', 'name', 'translation', 'rotation', 'matrix']],
    ['skins', ['joints', 'inverseBindMatrices']],
  ]
  if (rng.int(3) === 0) {
    const a = rng.pick(json.animations as any[])
    if (rng.int(2)) {
      const s = rng.pick(a.samplers as any[])
      const key = rng.pick(['input', 'output', 'interpolation'])
      s[key] = rng.pick(HOSTILE)
      return `animation "${a.name}" sampler.${key} = ${JSON.stringify(s[key])}`
    }
    const c = rng.pick(a.channels as any[])
    const key = rng.pick(['sampler', 'node', 'path'])
    if (key === 'sampler') c.sampler = rng.pick(HOSTILE)
    else c.target[key] = rng.pick(HOSTILE)
    return `animation "${a.name}" channel.${key} changed`
  }
  const [group, keys] = rng.pick(groups)
  const list = json[group] as any[] | undefined
  if (!list?.length) return `no ${group}`
  const i = rng.int(list.length)
  const key = rng.pick(keys)
  const v = rng.pick(HOSTILE)
  if (rng.int(5) === 0) delete list[i][key]
  else list[i][key] = typeof v === 'number' && rng.int(2) && typeof list[i][key] === 'number' ? list[i][key] * (2 + rng.int(100)) : v
  return `${group}[${i}].${key} = ${JSON.stringify(list[i][key])}`
}

describe('fuzz: re import with mutated glTF', () => {
  it(`exits 0 or 1 naming the glTF, never a crash, never an output on failure (seed ${SEED})`, async () => {
    const rng = new Rng(SEED + 0x91)
    const tally = new Tally()
    const binFields = [...nonZeroWords(glb.subarray(0, 28)), ...nonZeroWords(glb, 1 << 14).filter((_, i) => i % 7 === 0)]
    for (let n = 0; n < cases(60); n++) {
      let label: string
      let bytes: Uint8Array
      if (n % 2) {
        const m = mutate(glb, binFields, rng, { little: true })
        label = `bytes: ${m.label}`
        bytes = m.bytes
      } else {
        const { json, bin } = splitGlb(glb)
        const edits = Array.from({ length: 1 + rng.int(3) }, () => mutateJson(json, rng))
        label = `json: ${edits.join(' + ')}`
        bytes = joinGlb(json, bin)
      }
      const file = await writeCase(dir, `case${n}.glb`, bytes)
      const out = path.join(dir, `out${n}.motlist.663`)
      const r = await expectCliCase(label, ['re', 'import', '--template', SAMPLE, '--gltf', file, '--animation', 'fixture_idle', '--out', out, '--json'], [file], [out], [[SAMPLE, motlist]])
      tally.add(r.code)
      if (r.code === 0) rmSync(out)
    }
    if (process.env.FUZZ_TRACE) process.stderr.write(`[fuzz] re import: ${tally}\n`)
    expect(tally.error).toBeGreaterThan(0)
  })
})

describe('fuzz: re export with mutated motlists', () => {
  it(`exits 0 or 1 naming the motlist, never a crash, never an output on failure (seed ${SEED})`, async () => {
    const rng = new Rng(SEED + 0x92)
    const tally = new Tally()
    for (let n = 0; n < cases(40); n++) {
      const m = mutate(motlist, motFields, rng, { little: true, keep: (o) => o >= 4 && o < 8 })
      const file = await writeCase(dir, `case${n}.motlist.663`, m.bytes)
      const out = path.join(dir, `exp${n}.glb`)
      const r = await expectCliCase(m.label, ['re', 'export', file, '--out', out, '--json'], [file], [out])
      tally.add(r.code)
      if (r.code === 0) rmSync(out)
    }
    if (process.env.FUZZ_TRACE) process.stderr.write(`[fuzz] re export: ${tally}\n`)
    expect(tally.error).toBeGreaterThan(0)
  })
})
