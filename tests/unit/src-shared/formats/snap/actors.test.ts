import { describe, expect, it } from 'vitest'
import { buildSnapRom } from '../../../../fixtures/snap/build-rom'
import { PIKACHU_INIT } from '../../../../fixtures/snap/build-actors'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { findStageActors, loadActor } from '../../../../../src-shared/formats/snap/actors'
import { readPokemonDefs } from '../../../../../src-shared/formats/snap/pokemon-def'
import { mipsAsm as A } from '../../../../../src-shared/formats/snap/mips'
import { stageByName } from '../../../../../src-shared/formats/snap/stages'
import { AddressMap } from '../../../../../src-shared/formats/snap/address-map'
import { readNodeList } from '../../../../../src-shared/formats/snap/node-list'

const rom = buildSnapRom()

function patched(edit: (image: Uint8Array, romOf: (addr: number) => number) => void): Uint8Array {
  const image = rom.image.slice()
  const st = parseStage(image, 'beach')
  const sa = findStageActors(st, image)
  edit(image, (addr) => sa.maps.stage.romOffset(addr)!)
  return image
}
const put32 = (image: Uint8Array, at: number, v: number) => new DataView(image.buffer, image.byteOffset).setUint32(at, v >>> 0)

describe('stage actors (§3.8, §3.9, §14.6)', () => {
  const beach = findStageActors(parseStage(rom.image, 'beach'), rom.image)
  const byId = (id: number) => beach.actors.find((a) => a.id === id)!

  it('every PokemonDef plus the Zero-One; species names; spawn counts', () => {
    expect(beach.actors.map((a) => [a.id, a.name])).toEqual([[0, 'zero-one'], [26, 'Raichu'], [25, 'Pikachu']])
    expect(byId(26).spawns).toBe(1)
    expect(byId(25).spawns).toBe(1)
    expect(beach.actors.every((a) => !a.error)).toBe(true)
  })
  it('the def table ends at id 0 and the init scan finds the PokemonInitData', () => {
    const defs = readPokemonDefs(beach.maps.stage, stageByName('beach')!.objects)
    expect(defs.map((d) => d.id)).toEqual([26, 25])
    const r = byId(26)
    expect(r.scan!.helper).toBe('Pokemon_SpawnOnGround')
    expect(r.spawnType).toBe('ground')
    expect(r.initData!.scale).toEqual([2, 2, 2])
    expect(r.initData!.renderFunc).toBe(0x80359484)
  })
  it('Pikachu resolves through the shared pikachu overlay (init in its Code range, model in its Data range)', () => {
    const p = byId(25)
    expect(p.def!.init).toBe(PIKACHU_INIT)
    expect(p.archive).toBe('pikachu')
    expect(p.spawnType).toBe('free')
    expect(p.initData!.addr).toBeGreaterThanOrEqual(0x800fff90)
    expect(p.initData!.addr).toBeLessThan(0x800fff90 + 0x1b0c0)
    // pikachu is not loaded on Volcano (§2.4): no def there
    const volcano = findStageActors(parseStage(rom.image, 'volcano'), rom.image)
    expect(volcano.actors.map((a) => a.id)).toEqual([0, 26])
  })
  it('animations: the default one, then the one its state function passes to a call', () => {
    const r = byId(26)
    expect(r.animations[0]).toBe(r.setup!.defaultAnimation)
    expect(r.animations).toHaveLength(2)
    const l = loadActor(beach, r)
    expect(l.animations.map((a) => a.anim!.header.speed)).toEqual([1, 0.5])
  })
  it('the HD photo model exists on the Beach (tree in its Photo range) and not where the tree is unmapped', () => {
    expect(byId(26).hd?.tree).toBeGreaterThanOrEqual(0x801b0310)
    expect(byId(25).hd).toBeUndefined()
    // Tunnel's Photo range (0x8018BC50..0x801AFD30) does not hold the tree
    const tunnel = findStageActors(parseStage(rom.image, 'tunnel'), rom.image)
    expect(tunnel.actors.find((a) => a.id === 26)!.hd).toBeUndefined()
    // Cave's Photo range does hold the address, but not a node list matching the model's two nodes
    const cave = findStageActors(parseStage(rom.image, 'cave'), rom.image)
    expect(cave.actors.find((a) => a.id === 26)!.hd).toBeUndefined()
  })
  it('the Zero-One: common graph 0x803AAA30, animation named after the stage node-track array', () => {
    const z = byId(0)
    expect(z.model!.tree).toBe(0x803aaa30)
    expect(z.animations).toEqual([0x8013c580])
    const l = loadActor(beach, z)
    expect(l.animations[0]!.anim!.fps).toBe(15)
    expect(l.animations[0]!.anim!.frames).toBe(30)
  })
})

describe('bad actor data: the actor is listed with an error, the rest go on (issue item 6)', () => {
  const raichuInit = (image: Uint8Array) => readPokemonDefs(findStageActors(parseStage(image, 'beach'), image).maps.stage, stageByName('beach')!.objects)[0]!.init
  it('an init that loops', () => {
    const image = patched((img, romOf) => {
      const at = romOf(raichuInit(img))
      put32(img, at, A.b(-1)) // b to itself
      put32(img, at + 4, A.nop())
    })
    const sa = findStageActors(parseStage(image, 'beach'), image)
    const r = sa.actors.find((a) => a.id === 26)!
    expect(r.error).toMatch(/PokemonDef\[0\] \(id 26\) init 0x802C.*no spawn-helper call within 4096 instructions/)
    expect(sa.actors.filter((a) => !a.error).map((a) => a.id)).toEqual([0, 25])
  })
  it('an init that never reaches a spawn helper', () => {
    const image = patched((img, romOf) => put32(img, romOf(raichuInit(img)), A.jrRa()))
    const r = findStageActors(parseStage(image, 'beach'), image).actors.find((a) => a.id === 26)!
    expect(r.error).toMatch(/returns at 0x802C[0-9A-F]+ without calling a spawn helper/)
  })
  it('a node list without terminator', () => {
    const st = parseStage(rom.image, 'beach')
    const sa = findStageActors(st, rom.image)
    const r = sa.actors.find((a) => a.id === 26)!
    const image = rom.image.slice()
    // the end marker (node 2, info 0x12) becomes a depth-1 node: the reader runs into the next data
    put32(image, sa.maps.stage.romOffset(r.model!.tree)! + 2 * 0x2c, 1)
    const sa2 = findStageActors(parseStage(image, 'beach'), image)
    expect(() => loadActor(sa2, sa2.actors.find((a) => a.id === 26)!)).toThrow(/Raichu model\.tree/)
    // and a list of well-formed nodes with no marker stops at the node limit with its own message
    const bytes = new Uint8Array(0x2c * 600)
    for (let i = 0; i < 600; i++) new DataView(bytes.buffer).setFloat32(i * 0x2c + 0x20, 1)
    const map = new AddressMap('t.z64', [{ archive: 't', kind: 'Data', start: 0x80400000, bytes, romStart: 0x2000 }])
    expect(() => readNodeList(map, 0x80400000, 'PokemonInitData.tree')).toThrow(/PokemonInitData\.tree at 0x2000: no end marker \(info 0x12\) within 512 nodes/)
  })
  it('an unknown animation command: that animation carries the error, the model still loads', () => {
    const st = parseStage(rom.image, 'beach')
    const sa = findStageActors(st, rom.image)
    const r = sa.actors.find((a) => a.id === 26)!
    const l = loadActor(sa, r)
    const image = rom.image.slice()
    const t0 = sa.maps.stage.view(l.animations[0]!.anim!.header.modelAnims, 4, 'x').u32At(0)
    put32(image, sa.maps.stage.romOffset(t0)!, (40 << 25) >>> 0)
    const sa2 = findStageActors(parseStage(image, 'beach'), image)
    const l2 = loadActor(sa2, sa2.actors.find((a) => a.id === 26)!)
    expect(l2.animations[0]!.error).toMatch(/unknown animation command 40.*/)
    expect(l2.animations[0]!.error).toMatch(/AnimationHeader 0x802C[0-9A-F]+\.modelAnims\[0\]/)
    expect(l2.animations[1]!.error).toBeUndefined()
    expect(l2.draws.drawCalls.length).toBeGreaterThan(0)
  })
  it('an unmapped PokemonInitData pointer', () => {
    const image = patched((img, romOf) => {
      const at = romOf(raichuInit(img))
      // the lui of li32 (word 4 of the init) now builds 0x8041xxxx
      put32(img, at + 16, A.lui(14, 0x8041))
    })
    const r = findStageActors(parseStage(image, 'beach'), image).actors.find((a) => a.id === 26)!
    expect(r.error).toMatch(/PokemonInitData 0x804[0-9A-F]+ \(id 26\) → 0x804[0-9A-F]+ is in no mapped chunk/)
  })
})
