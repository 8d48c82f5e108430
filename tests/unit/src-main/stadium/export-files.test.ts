/**
 * exportStadium writes manifest.json and moves.json streamed: the files are the bytes
 * `JSON.stringify(…, null, 1) + '\n'` of the objects printed whole; an export stopped in the
 * middle (abort between models) leaves no folder behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { exportStadium, GENERATOR } from '../../../../src-main/domains/stadium/rom-file'
import { openStadiumRom } from '../../../../src-shared/formats/stadium/model'
import { buildManifest, buildMovesJson } from '../../../../src-shared/formats/stadium/manifest'
import { buildStadiumRom } from '../../../fixtures/stadium/rom-builder'
import { fixtureFiles } from '../../../fixtures/stadium/models'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'stadium-export-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const sr = openStadiumRom(buildStadiumRom({ files: fixtureFiles(160) }), '/some/folder/fixture "A".z64', 'fixture')

describe('exportStadium JSON files', () => {
  it('are JSON.stringify(…, null, 1) + newline of the manifest and moves objects', async () => {
    const out = path.join(dir, 'out')
    const res = await exportStadium(sr, out, { textures: false })
    const info = { source: 'fixture "A".z64', romMd5: sr.rom.md5, verified: sr.verified, generator: GENERATOR }
    expect(readFileSync(path.join(out, 'manifest.json'), 'utf8')).toBe(JSON.stringify(buildManifest(info, res.summaries), null, 1) + '\n')
    expect(readFileSync(path.join(out, 'moves.json'), 'utf8')).toBe(JSON.stringify(buildMovesJson(info, res.summaries), null, 1) + '\n')
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    expect(manifest.pokemon).toHaveLength(151)
    expect(manifest.extra).toHaveLength(9)
    expect(manifest.source).toBe('fixture "A".z64')
  })

  it('an export aborted after some models leaves no folder and no temp folder', async () => {
    const out = path.join(dir, 'aborted')
    const ac = new AbortController()
    const run = exportStadium(sr, out, { signal: ac.signal, onProgress: (d) => d === 20 && ac.abort() })
    await expect(run).rejects.toThrow()
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.includes('aborted'))).toEqual([])
  })
})
