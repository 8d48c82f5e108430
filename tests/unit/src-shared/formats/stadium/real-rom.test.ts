/**
 * Checks on a real Pokémon Stadium (US 1.0) ROM, when one is supplied through the STADIUM_ROM
 * environment variable (pokemon-stadium.md §17 item 2). No game data is in this repository, so
 * the suite is skipped without it.
 */
import { describe, expect, it } from 'vitest'
import { readFileSync, existsSync } from 'node:fs'
import { openStadiumRom, loadModel } from '../../../../../src-shared/formats/stadium/model'

const path = process.env.STADIUM_ROM
const have = !!path && existsSync(path)

describe.skipIf(!have)('real Stadium ROM (STADIUM_ROM)', () => {
  it('215 files decompress to FRAGMENT modules with roots, species and battle tables that fit', () => {
    const sr = openStadiumRom(new Uint8Array(readFileSync(path!)), 'stadium.z64')
    expect(sr.archive.id).toBe(0xef)
    expect(sr.archive.entries.length).toBe(215)
    const rawFlags = new Map<number, number>()
    const patchCounts = new Map<number, number>()
    for (const e of sr.archive.entries) {
      const m = loadModel(sr, e.index)
      if (e.index < 151) expect(m.species).toBe(e.index + 1)
      for (const b of m.graph.bones) rawFlags.set(b.rawFlags, (rawFlags.get(b.rawFlags) ?? 0) + 1)
      patchCounts.set(m.container.patches.length, (patchCounts.get(m.container.patches.length) ?? 0) + 1)
      if (m.battle) for (const en of m.battle.entries) expect(en.anim).toBeLessThan(m.animations.length)
    }
    console.log('rawFlags histogram', Object.fromEntries(rawFlags), 'PERS-SZP patch counts', Object.fromEntries(patchCounts))
  })
})
