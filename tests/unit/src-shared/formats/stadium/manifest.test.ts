/**
 * manifest.json / moves.json written in pieces (manifestText, movesText) are byte for byte
 * `JSON.stringify(object, null, 1) + '\n'` of the same data, on the bench-sized 215-model image
 * and on edge cases; the summaries keep the battle rows compactly and exactly.
 */
import { describe, expect, it } from 'vitest'
import { openStadiumRom, loadModel } from '../../../../../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../../../../../src-shared/formats/stadium/scene'
import { buildManifest, buildMovesJson, manifestText, movesText, summarizeModel, type ModelSummary, type RomInfo } from '../../../../../src-shared/formats/stadium/manifest'
import { buildStadiumRom } from '../../../../fixtures/stadium/rom-builder'
import { fixtureFiles } from '../../../../fixtures/stadium/models'

const sr = openStadiumRom(buildStadiumRom({ files: fixtureFiles(215) }), 'bench.z64', 'bench')
const models = sr.archive.entries.map((e) => loadModel(sr, e.index))
const summaries = models.map((m) => summarizeModel(m, buildStadiumScene(m)))
const info: RomInfo = { source: 'bench.z64', romMd5: 'ac5c02558a384a2cc897a46d9dbd2dae', verified: false, generator: 'Modbench 0.1.0 (stadium)' }

const manifest = (rom: RomInfo, s: ModelSummary[]) => [...manifestText(rom, s)].join('')
const moves = (rom: RomInfo, s: ModelSummary[]) => [...movesText(rom, s)].join('')

describe('streamed manifest.json and moves.json', () => {
  it('are JSON.stringify(…, null, 1) + newline byte for byte on the 215-model image', () => {
    const m = manifest(info, summaries)
    expect(m).toBe(JSON.stringify(buildManifest(info, summaries), null, 1) + '\n')
    expect(m.length).toBeGreaterThan(1_000_000) // the bench's size (1.2 MB)
    const mv = moves(info, summaries)
    expect(mv).toBe(JSON.stringify(buildMovesJson(info, summaries), null, 1) + '\n')
    expect(mv.length).toBeGreaterThan(3_500_000) // 4 MB
    expect(mv).toContain('Nidoran♀') // a two-byte string inside
  })

  it('come one model entry / one move per piece, not as one string', () => {
    const pieces = [...manifestText(info, summaries)]
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(20_000)
    const movePieces = [...movesText(info, summaries)]
    expect(Math.max(...movePieces.map((p) => p.length))).toBeLessThan(100_000)
  })

  it('match JSON.stringify on edge cases: no models, extras only, names needing escapes', () => {
    const odd: RomInfo = { source: 'my "rom"\\\n\u2028é♂.z64', romMd5: '', verified: true, generator: 'g\t1' }
    const extras = summaries.filter((s) => s.group === 'extra')
    const renamed = summaries.slice(0, 3).map((s) => ({ ...s, name: 'Mr. "Mime"\n♀', warnings: ['a\\b', ''], animations: [], textureAnimations: [], attachPoints: [], geoOpcodes: {} }))
    for (const [rom, s] of [[info, []], [odd, []], [odd, extras], [odd, renamed]] as [RomInfo, ModelSummary[]][]) {
      expect(manifest(rom, s)).toBe(JSON.stringify(buildManifest(rom, s), null, 1) + '\n')
      expect(moves(rom, s)).toBe(JSON.stringify(buildMovesJson(rom, s), null, 1) + '\n')
    }
    const empty = JSON.parse(manifest(info, []))
    expect(empty.pokemon).toEqual([])
    expect(empty.extra).toEqual([])
    const noUsers = JSON.parse(moves(info, extras))
    expect(noUsers.moves).toHaveLength(165)
    expect(noUsers.moves[0]).toEqual({ id: 1, name: 'Pound', constant: 'POUND', speciesWithOwnAnimation: 0, animationNames: [], users: [] })
  })

  it('summaries keep each battle row as an (anim, aux) pair, exactly the table', () => {
    for (const [i, m] of models.entries()) {
      const rows = summaries[i]!.battleRows
      if (!m.battle) {
        expect(rows).toBeNull()
        continue
      }
      expect(rows).toHaveLength(2 * m.battle.entries.length)
      m.battle.entries.forEach((e, r) => expect([rows![2 * r], rows![2 * r + 1]]).toEqual([e.anim, e.aux]))
    }
    expect(summaries.filter((s) => s.battleRows).length).toBeGreaterThan(100)
    expect(summaries.some((s) => s.battleRows?.includes(-1))).toBe(true) // aux 0xFF read as −1
  })
})
