/**
 * A stage's actor definitions (pokemon-snap.md §3.8, [D: include/common_structs.h]): the
 * `PokemonDef` table, the `PokemonInitData` found by scanning each `init` function for its spawn
 * helper call (§14.6 "MIPS scan"), `PokemonAnimationSetup`, and the HD photo-model table.
 */
import { FormatError, LimitError, hex } from '../../binary'
import type { AddressMap } from './address-map'
import { walkFunction } from './mips'

export interface PokemonDef {
  index: number
  addr: number
  id: number
  init: number
  update: number
  kill: number
}

const DEF_SIZE = 0x10
const DEF_LIMIT = 512

/** The PokemonDef table at `addr`, until `id == 0`. */
export function readPokemonDefs(map: AddressMap, addr: number): PokemonDef[] {
  const out: PokemonDef[] = []
  for (let i = 0; ; i++) {
    if (i >= DEF_LIMIT) throw new FormatError(`no id 0 terminator within ${DEF_LIMIT} records`, { file: map.file, structure: 'PokemonDef table (Objects)', offset: map.romOffset(addr) })
    const a = addr + i * DEF_SIZE
    const r = map.view(a, 4, 'PokemonDef', `Objects[${i}]`)
    const id = r.u32At(0, 'PokemonDef.id')
    if (id === 0) return out
    r.check(0, DEF_SIZE, `Objects[${i}]`)
    out.push({ index: i, addr: a, id, init: r.u32At(4, 'PokemonDef.init'), update: r.u32At(8, 'PokemonDef.update'), kill: r.u32At(12, 'PokemonDef.kill') })
  }
}

export type SpawnType = 'ground' | 'free'

/** The four spawn helpers (§3.8). */
export const SPAWN_HELPERS: ReadonlyMap<number, { name: string; type: SpawnType }> = new Map([
  [0x80362ee0, { name: 'Pokemon_SpawnOnGround', type: 'ground' as SpawnType }],
  [0x80362e10, { name: 'Pokemon_SpawnOnGroundDlLink4', type: 'ground' as SpawnType }],
  [0x80362e5c, { name: 'Pokemon_Spawn', type: 'free' as SpawnType }],
  [0x80362dc4, { name: 'Pokemon_SpawnDlLink4', type: 'free' as SpawnType }],
])

/** noclip tolerates this init without a helper call (§3.8). */
export const TOLERATED_INIT = 0x802eaf18

export interface InitScan {
  initData: number
  helper: string
  helperAddr: number
  spawnType: SpawnType
  /** Address of the `jal`. */
  callAt: number
  steps: number
}

/**
 * Finds the `PokemonInitData` an init function passes to a spawn helper: the word stored at
 * `sp+0x14` (the 6th o32 argument) when the `jal` to a helper executes. A call to another
 * function is stepped over; a return, an unknown argument or a run past the budget is an error
 * naming the function.
 */
export function scanInitFunction(map: AddressMap, init: number, label: string, maxSteps = 4096): InitScan {
  let found: InitScan | undefined
  let unknownArg: number | undefined
  const res = walkFunction(map, init, label, {
    maxSteps,
    budgetMessage: 'no spawn-helper call',
    onJal: (ev) => {
      const h = SPAWN_HELPERS.get(ev.target)
      if (!h) return false
      const arg = ev.stackArg(0x14)
      if (arg === undefined || arg === 0) { unknownArg = ev.at; return true }
      found = { initData: arg, helper: h.name, helperAddr: ev.target, spawnType: h.type, callAt: ev.at, steps: 0 }
      return true
    },
  })
  const ctx = { file: map.file, structure: `${label} ${hex(init)}`, offset: map.romOffset(res.pc) }
  if (unknownArg !== undefined) throw new FormatError(`the spawn-helper call at ${hex(unknownArg)} has no constant 6th argument (sp+0x14)`, ctx)
  if (!found) throw new FormatError(`the function ${res.end === 'return' ? 'returns' : 'jumps through a register'} at ${hex(res.pc)} without calling a spawn helper`, ctx)
  return { ...found, steps: res.steps }
}

export interface PokemonInitData {
  addr: number
  tree: number
  textures: number
  renderFunc: number
  animSetup: number
  scale: [number, number, number]
  collisionCenter: [number, number, number]
  radius: number
  flags: number
  matrixKinds: [number, number, number]
}

const finite = (r: ReturnType<AddressMap['view']>, o: number, f: string) => {
  const v = r.f32At(o, f)
  if (!Number.isFinite(v)) throw r.error(`${f}: non-finite value ${v}`, o)
  return v
}
const vec3 = (r: ReturnType<AddressMap['view']>, o: number, f: string): [number, number, number] => [finite(r, o, `${f}.x`), finite(r, o + 4, `${f}.y`), finite(r, o + 8, `${f}.z`)]

export function readPokemonInitData(map: AddressMap, addr: number, field: string): PokemonInitData {
  const r = map.view(addr, 0x31, 'PokemonInitData', field)
  return {
    addr,
    tree: r.u32At(0x00, 'PokemonInitData.tree'),
    textures: r.u32At(0x04, 'PokemonInitData.textures'),
    renderFunc: r.u32At(0x08, 'PokemonInitData.fnRender'),
    animSetup: r.u32At(0x0c, 'PokemonInitData.animSetup'),
    scale: vec3(r, 0x10, 'PokemonInitData.scale'),
    collisionCenter: vec3(r, 0x1c, 'PokemonInitData.collisionCenter'),
    radius: finite(r, 0x28, 'PokemonInitData.radius'),
    flags: r.u16At(0x2c, 'PokemonInitData.flags'),
    matrixKinds: [r.u8At(0x2e), r.u8At(0x2f), r.u8At(0x30)],
  }
}

export interface AnimationSetup {
  addr: number
  defaultAnimation: number
  initialState: number
  kind: number
  transitionGraph: number
}

export function readAnimationSetup(map: AddressMap, addr: number, field: string): AnimationSetup {
  const r = map.view(addr, 0x14, 'PokemonAnimationSetup', field)
  return {
    addr,
    defaultAnimation: r.u32At(0x00, 'PokemonAnimationSetup.animation'),
    initialState: r.u32At(0x04, 'PokemonAnimationSetup.initialState'),
    kind: r.i8At(0x08, 'PokemonAnimationSetup.kind'),
    transitionGraph: r.u32At(0x10, 'PokemonAnimationSetup.transitionGraph'),
  }
}

/** State functions of a transition graph (`{s32 cmd; fn state; f32 value; fn aux}`, 0x10 each), until cmd 0 / NULL state. */
export function readTransitionStates(map: AddressMap, addr: number, field: string, limit = 64): number[] {
  const out: number[] = []
  if (!addr) return out
  for (let i = 0; i < limit; i++) {
    const r = map.view(addr + i * 0x10, 0x10, 'InteractionHandler', `${field}[${i}]`)
    const cmd = r.i32At(0, 'InteractionHandler.cmd')
    const state = r.u32At(4, 'InteractionHandler.state')
    if (cmd === 0 && state === 0) break
    if (state) out.push(state)
  }
  return out
}

export interface HdModel {
  id: number
  unk: number
  tree: number
  textures: number
  renderFunc: number
}

/** RAM address of the HD photo-model table `D_800ADBEC` (§3.8). */
export const HD_TABLE = 0x800adbec

/** The HD photo-model table (0x14 records until id 0), or [] when it is not mapped. */
export function readHdTable(map: AddressMap, warn: (m: string) => void): HdModel[] {
  const out: HdModel[] = []
  if (!map.find(HD_TABLE, 4)) return out
  try {
    for (let i = 0; i < 256; i++) {
      const r = map.view(HD_TABLE + i * 0x14, 4, 'HdPhotoModel', `D_800ADBEC[${i}]`)
      const id = r.u32At(0, 'HdPhotoModel.id')
      if (id === 0) return out
      r.check(0, 0x14, `D_800ADBEC[${i}]`)
      out.push({ id, unk: r.f32At(4), tree: r.u32At(8, 'HdPhotoModel.tree'), textures: r.u32At(12, 'HdPhotoModel.textures'), renderFunc: r.u32At(16, 'HdPhotoModel.renderFunc') })
    }
    throw new LimitError('no id 0 terminator within 256 records', { file: map.file, structure: 'HD photo-model table D_800ADBEC', offset: map.romOffset(HD_TABLE) })
  } catch (e) {
    if (!(e instanceof FormatError)) throw e
    warn(`HD photo-model table: ${e.message}`)
    return out
  }
}
