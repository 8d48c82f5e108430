/**
 * Robustness of the `.fbxskel` reader (src-shared/formats/re/fbxskel.ts) as `--skeleton SKEL`:
 * mutated synthetic files of both record layouts through `readSkeletonSource`, then a sweep of
 * truncations and extreme values at every traced field. Each case returns or fails with a
 * FormatError naming the file, a structure and an offset; nothing hangs or crashes. Fields to
 * mutate are learnt by tracing the reads of the unmodified files.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { FormatError } from '../../src-shared/binary'
import { readSkeletonSource } from '../../src-shared/formats/re'
import { Rng, SEED, Tally, cases, expectReaderOk, mutate, sweepCases, traceReads, type Field } from '../helpers/fuzz'
import { buildFbxSkel } from '../fixtures/re/fbxskel'
import { characterBones } from '../fixtures/re/mesh'

const inputs: Record<string, Uint8Array> = {}
let traced: Record<string, Field[]>

function open(bytes: Uint8Array, name: string): void {
  try {
    readSkeletonSource(bytes, name)
  } catch (e) {
    if (e instanceof FormatError) {
      expect(e.message).toContain(name)
      expect(e.structure, e.message).toBeTruthy()
      expect(e.offset, e.message).toBeTypeOf('number')
    }
    throw e
  }
}

beforeAll(async () => {
  inputs['ch_new.fbxskel.7'] = buildFbxSkel(characterBones(), { layout: 5 })
  inputs['ch_old.fbxskel.3'] = buildFbxSkel(characterBones(), { layout: 4 })
  traced = await traceReads(inputs, () => {
    for (const [name, b] of Object.entries(inputs)) open(b, name)
  })
})

describe('mutated .fbxskel files', () => {
  it('traced the header and bone fields of both layouts', () => {
    for (const name of Object.keys(inputs)) expect(traced[name]!.length, name).toBeGreaterThan(50)
  })

  it('mutations return or throw a FormatError naming file, structure and offset', () => {
    const rng = new Rng(0xfb5e0000 + SEED)
    const tally = new Tally()
    for (const [name, b] of Object.entries(inputs)) {
      for (let i = 0; i < cases(300); i++) {
        const m = mutate(b, traced[name]!, rng, { little: true })
        tally.add(expectReaderOk(`${name} case ${i}: ${m.label}`, () => open(m.bytes, name), name))
      }
    }
    tally.expectShares('fbxskel reader', { ok: 0.3, error: 0.1 }) // seed 0: 79 % ok, 21 % errors
  })

  it('truncation at every traced field boundary and every field at its extremes', () => {
    const tally = new Tally()
    for (const [name, b] of Object.entries(inputs)) for (const c of sweepCases(name, b, traced[name]!)) tally.add(expectReaderOk(c.label, () => open(c.bytes, name), name))
    tally.expectShares('fbxskel sweep', { ok: 0.2, error: 0.2 }) // fixed sweep: 70 % ok, 30 % errors
  })
})
