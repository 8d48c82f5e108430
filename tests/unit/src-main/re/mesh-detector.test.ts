/**
 * `.mesh.*` in the catalog: the detector (metadata: bones, submeshes, materials, the character
 * ID), the folder-naming rule that pairs a motlist with its character's meshes
 * (src-shared/formats/re/character.ts, docs/DECISIONS.md), and the pairing over an indexed tree
 * laid out as RE2 and RE4R lay out their files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { detectFile } from '../../../../src-main/indexer/registry'
import { reMeshDetector } from '../../../../src-main/domains/re/mesh-detector'
import { reMotionDetector } from '../../../../src-main/domains/re/detector'
import { pairedMeshes } from '../../../../src-main/domains/re/pairing'
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { indexPaths } from '../../../../src-main/indexer/indexer'
import { characterToken, motlistPairsWithMesh, reCharacterId } from '../../../../src-shared/formats/re'
import { characterMesh } from '../../../fixtures/re/mesh'
import { buildGameMotlist } from '../../../fixtures/re/game-motlist'

const input = (p: string, bytes: Uint8Array) => ({ path: p, name: path.basename(p).toLowerCase(), size: bytes.byteLength, head: bytes.subarray(0, 65536) })

describe('re-mesh detector', () => {
  it('detects a mesh by magic and name and lists its skeleton and submeshes in the metadata', async () => {
    const b = characterMesh('A')
    const p = '/game/natives/x64/sectionroot/character/player/pl1000/pl1050/pl1050.mesh.1808312334'
    expect(detectFile(input(p, b))).toBe(reMeshDetector)
    const r = await reMeshDetector.enumerate(b, input(p, b))
    expect(r.kind).toBe('re-mesh')
    expect(r.assets).toHaveLength(1)
    expect(r.assets[0]).toMatchObject({
      key: 'file',
      kind: 're-mesh',
      name: 'pl1050.mesh.1808312334',
      metadata: {
        version: 1808312334,
        layout: 'A',
        bones: 8,
        submeshes: 2,
        vertices: 14, // strips of 8 and 6
        triangles: 10,
        lods: [{ submeshes: 2, vertices: 14, triangles: 10 }, { submeshes: 1, vertices: 4, triangles: 2 }],
        materials: ['body_mat', 'head_mat'],
        character: 'pl1000',
      },
    })
    expect(r.assets[0]!.tags).toContain('pl1000')
  })

  it('a damaged mesh: a FormatError naming the file (the indexer records it)', () => {
    const b = characterMesh('C').subarray(0, 0x100)
    expect(() => reMeshDetector.enumerate(b, input('/x/bad.mesh.221108797', b))).toThrow(/bad\.mesh\.221108797/)
  })

  it('a motlist carries the character ID of its path', async () => {
    const b = buildGameMotlist({ version: 85 })
    const p = '/game/natives/x64/sectionroot/cutscene/ev/ev040/ev040_s00/chara/pl1000/pl1000.motlist.85'
    const r = await reMotionDetector.enumerate(b, input(p, b))
    expect(r.assets[0]!.metadata).toMatchObject({ character: 'pl1000', bones: 0 })
    expect(r.assets[0]!.tags).toContain('pl1000')
  })
})

describe('the folder-naming rule', () => {
  it('character IDs: two letters and 4–5 letters/digits starting with a digit, at least three digits', () => {
    expect(characterToken('pl1000')).toBe('pl1000')
    expect(characterToken('em0000_window_em.motlist.85')).toBe('em0000')
    expect(characterToken('ch3a8z0_body')).toBe('ch3a8z0')
    expect(characterToken('PL0800')).toBe('pl0800')
    for (const s of ['ev040', 'ev040_s00', 'natives', 'x64', 'stm', 'chara', 'character', 'player', 'motlist', 'pl10', 'plabcd0', 'pl1000x0'])
      expect(characterToken(s), s).toBeNull()
  })

  it('the first ID below natives/, folders before the file name', () => {
    expect(reCharacterId('/g/natives/x64/animation/player/pl0800/motlist/pl0800_yamato.motlist.85')).toBe('pl0800')
    expect(reCharacterId('/g/natives/x64/sectionroot/character/player/pl1000/pl1050/pl1050.mesh.1808312334')).toBe('pl1000')
    expect(reCharacterId('C:\\g\\natives\\stm\\_chainsaw\\character\\ch\\cha0\\ch3a8z0\\00\\ch3a8z0_body.mesh.221108797')).toBe('ch3a8z0')
    // an ID above natives/ is not the game's naming
    expect(reCharacterId('/mods/pl2000/natives/x64/misc/thing.motlist.85')).toBeNull()
    expect(reCharacterId('/home/me/walk.motlist.663')).toBeNull()
  })

  it('pairs by folder, or by ID under one natives/<platform> root', () => {
    const root = '/g/natives/x64'
    expect(motlistPairsWithMesh(`${root}/sectionroot/cutscene/ev/ev040/chara/pl1000/pl1000.motlist.85`, `${root}/sectionroot/character/player/pl1000/pl1050/pl1050.mesh.1808312334`)).toBe(true)
    expect(motlistPairsWithMesh(`${root}/animation/em0000_window_em.motlist.85`, `${root}/character/enemy/em0000/em0000.mesh.1808312334`)).toBe(true)
    // other character, other root, no ID
    expect(motlistPairsWithMesh(`${root}/animation/pl1000/a.motlist.85`, `${root}/character/pl2000/pl2000.mesh.1808312334`)).toBe(false)
    expect(motlistPairsWithMesh(`${root}/animation/pl1000/a.motlist.85`, '/h/natives/x64/character/pl1000/pl1000.mesh.1808312334')).toBe(false)
    expect(motlistPairsWithMesh('/mods/walk.motlist.663', '/mods/other/leon.mesh.221108797')).toBe(false)
    // one folder always pairs (a mod's files side by side)
    expect(motlistPairsWithMesh('/mods/walk.motlist.663', '/mods/leon.mesh.221108797')).toBe(true)
  })
})

describe('pairing over an indexed tree', () => {
  let dir: string
  let cat: Catalog
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'remesh-pair-'))
    const put = (rel: string, b: Uint8Array) => {
      const p = path.join(dir, ...rel.split('/'))
      fs.mkdirSync(path.dirname(p), { recursive: true })
      fs.writeFileSync(p, b)
    }
    put('natives/x64/sectionroot/character/player/pl1000/pl1000/pl1000.mesh.1808312334', characterMesh('A'))
    put('natives/x64/sectionroot/character/player/pl1000/pl1050/pl1050.mesh.1808312334', characterMesh('A'))
    put('natives/x64/sectionroot/character/enemy/em0000/em0000.mesh.1808312334', characterMesh('A'))
    put('natives/x64/sectionroot/animation/player/pl1000/pl1000_walk.motlist.85', buildGameMotlist({ version: 85 }))
    put('mods/walk/walk.motlist.663', buildGameMotlist())
    put('mods/walk/leon.mesh.221108797', characterMesh('C'))
    cat = openCatalog(path.join(dir, 'catalog.db'))
    await indexPaths(cat, [path.join(dir, 'natives'), path.join(dir, 'mods')])
  })
  afterAll(() => {
    cat.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('lists the meshes as re-mesh assets and pairs each motlist with its character\'s', () => {
    const meshes = cat.list({ kind: 're-mesh' })
    expect(meshes).toHaveLength(4)
    expect(meshes.find((m) => m.name === 'pl1050.mesh.1808312334')!.metadata).toMatchObject({ bones: 8, submeshes: 2, character: 'pl1000' })
    const rel = (rows: { sourcePath?: string }[]) => rows.map((r) => path.relative(dir, r.sourcePath!).split(path.sep).join('/'))
    const walk = path.join(dir, 'natives/x64/sectionroot/animation/player/pl1000/pl1000_walk.motlist.85')
    expect(rel(pairedMeshes(cat, walk))).toEqual([
      'natives/x64/sectionroot/character/player/pl1000/pl1000/pl1000.mesh.1808312334',
      'natives/x64/sectionroot/character/player/pl1000/pl1050/pl1050.mesh.1808312334',
    ])
    expect(rel(pairedMeshes(cat, path.join(dir, 'mods/walk/walk.motlist.663')))).toEqual(['mods/walk/leon.mesh.221108797'])
  })
})
