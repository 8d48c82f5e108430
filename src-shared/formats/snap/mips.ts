/**
 * A small, bounded MIPS (R4300, o32 ABI) interpreter over a function body: it tracks register
 * constants built by `lui`/`addiu`/`ori` (and moves), the words stored relative to `sp`, and
 * reports every `jal` with the argument registers and the outgoing stack arguments as they are at
 * the call (the delay slot executed first). Used to find `PokemonInitData` (the 6th argument of a
 * spawn helper, at `sp+0x14`, pokemon-snap.md §3.8 / §14.6) and `SetAnimation` candidates.
 *
 * It does not evaluate conditions: conditional branches fall through (their delay slot runs),
 * unconditional branches (`j`, `b` = `beq $0,$0`) are taken, `jr`/`jalr` to a register ends the
 * walk, and every step counts against a budget, so a loop is a LimitError naming the function,
 * never a hang. Encodings: MIPS IV instruction set manual (public ISA facts, no code copied).
 */
import { FormatError, LimitError, hex } from '../../binary'
import type { AddressMap } from './address-map'

export const SP = 29
export const RA = 31

export interface JalEvent {
  /** Address of the `jal`. */
  at: number
  target: number
  /** a0..a3 (registers 4..7) when known. */
  args: (number | undefined)[]
  /** Word stored at `sp + off` (current sp) for an outgoing stack argument, or undefined. */
  stackArg(off: number): number | undefined
}

export interface WalkOptions {
  /** Step budget (instructions executed), default 4096. */
  maxSteps?: number
  /** Called at every `jal` (after the delay slot); return true to stop the walk there. */
  onJal(ev: JalEvent): boolean
  /** Start of the budget error ("no spawn-helper call"). */
  budgetMessage?: string
}

export interface WalkResult {
  /** How the walk ended. */
  end: 'stopped' | 'return' | 'jumpRegister'
  steps: number
  /** Address of the last instruction executed. */
  pc: number
}

const signExt16 = (v: number) => (v << 16) >> 16
/** Caller-saved registers a call clobbers: v0, v1, a0–a3, t0–t9, at. */
const CLOBBERED = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25]

class Machine {
  regs: (number | undefined)[] = new Array<number | undefined>(32).fill(undefined)
  /** sp relative to its value at entry. */
  sp = 0
  /** Words stored at (entry sp + key). */
  stack = new Map<number, number | undefined>()
  constructor() {
    this.regs[0] = 0
  }
  get(r: number): number | undefined {
    return r === 0 ? 0 : this.regs[r]
  }
  set(r: number, v: number | undefined): void {
    if (r !== 0 && r !== SP) this.regs[r] = v === undefined ? undefined : v >>> 0
  }
}

type Flow = { kind: 'next' } | { kind: 'branch'; target: number } | { kind: 'jal'; target: number } | { kind: 'end'; how: 'return' | 'jumpRegister' }

/** Executes one non-control instruction's data effect; returns the control-flow effect. */
function step(m: Machine, w: number, pc: number): Flow {
  const op = w >>> 26, rs = (w >>> 21) & 31, rt = (w >>> 16) & 31, rd = (w >>> 11) & 31, imm = w & 0xffff
  switch (op) {
    case 0x00: {
      const funct = w & 0x3f
      if (funct === 0x08) return { kind: 'end', how: rs === RA ? 'return' : 'jumpRegister' } // jr
      if (funct === 0x09) return { kind: 'end', how: 'jumpRegister' } // jalr
      const a = m.get(rs), b = m.get(rt)
      if (funct === 0x21 || funct === 0x20) m.set(rd, a !== undefined && b !== undefined ? a + b : undefined) // addu/add
      else if (funct === 0x25) m.set(rd, a !== undefined && b !== undefined ? a | b : undefined) // or (move)
      else if (funct === 0x23 || funct === 0x22) m.set(rd, a !== undefined && b !== undefined ? a - b : undefined) // subu/sub
      else if (rd !== 0 && funct !== 0x0c && funct !== 0x0d && funct !== 0x18 && funct !== 0x19 && funct !== 0x1a && funct !== 0x1b) m.set(rd, undefined)
      return { kind: 'next' }
    }
    case 0x02: return { kind: 'branch', target: ((pc + 4) & 0xf0000000) | ((w & 0x03ffffff) << 2) } // j
    case 0x03: return { kind: 'jal', target: (((pc + 4) & 0xf0000000) | ((w & 0x03ffffff) << 2)) >>> 0 } // jal
    case 0x04: // beq: `b` when both are $0 (or the same register)
      return rs === rt ? { kind: 'branch', target: (pc + 4 + (signExt16(imm) << 2)) >>> 0 } : { kind: 'next' }
    case 0x01: case 0x05: case 0x06: case 0x07: case 0x14: case 0x15: case 0x16: case 0x17:
      return { kind: 'next' } // conditional branches (and their likely forms) fall through
    case 0x09: { // addiu
      if (rt === SP && rs === SP) m.sp += signExt16(imm)
      else {
        const a = rs === SP ? undefined : m.get(rs)
        m.set(rt, a !== undefined ? a + signExt16(imm) : undefined)
      }
      return { kind: 'next' }
    }
    case 0x0d: { const a = m.get(rs); m.set(rt, a !== undefined ? a | imm : undefined); return { kind: 'next' } } // ori
    case 0x0f: m.set(rt, imm << 16); return { kind: 'next' } // lui
    case 0x2b: { // sw
      if (rs === SP) m.stack.set(m.sp + signExt16(imm), m.get(rt))
      return { kind: 'next' }
    }
    case 0x11: // COP1: mfc1 writes a GPR
      if (rs === 0x00) m.set(rt, undefined)
      return { kind: 'next' }
    case 0x28: case 0x29: case 0x39: case 0x3d: case 0x3f: case 0x2f: case 0x2c: case 0x2d: case 0x2e:
      return { kind: 'next' } // stores that are not sw-to-sp, cache: no register effect
    default:
      // other I-type ALU ops and loads write rt; unknown afterwards
      if (op >= 0x08 && op <= 0x0e) m.set(rt, undefined)
      else if (op >= 0x20 && op <= 0x27) m.set(rt, undefined)
      else if (op === 0x37 || op === 0x1a || op === 0x1b) m.set(rt, undefined)
      return { kind: 'next' }
  }
}

/**
 * Walks the function at `fn` (a RAM address in `map`). `label` names it in errors
 * ("PokemonDef[3].init 0x802CC0A0"). Throws a LimitError when the budget runs out.
 */
export function walkFunction(map: AddressMap, fn: number, label: string, opts: WalkOptions): WalkResult {
  const max = opts.maxSteps ?? 4096
  const m = new Machine()
  let pc = fn >>> 0
  let steps = 0
  const fetch = (a: number) => map.view(a, 4, 'MIPS code', `${label} instruction at ${hex(a)}`).u32At(0)
  for (;;) {
    if (steps >= max) {
      throw new LimitError(`${opts.budgetMessage ?? 'the walk did not end'} within ${max} instructions (a loop in the code?); last at ${hex(pc)}`, { file: map.file, structure: `${label} ${hex(fn)}`, offset: map.romOffset(pc) })
    }
    const w = fetch(pc)
    steps++
    const flow = step(m, w, pc)
    if (flow.kind === 'next') { pc = (pc + 4) >>> 0; continue }
    if (flow.kind === 'end') {
      // the delay slot of jr runs before the return
      step(m, fetch(pc + 4), pc + 4)
      return { end: flow.how, steps: steps + 1, pc }
    }
    // branch / jal: the delay slot executes first
    const slot = fetch(pc + 4)
    const slotFlow = step(m, slot, pc + 4)
    steps++
    if (slotFlow.kind !== 'next') throw new FormatError(`control transfer in a delay slot at ${hex(pc + 4)}`, { file: map.file, structure: `${label} ${hex(fn)}`, offset: map.romOffset(pc + 4) })
    if (flow.kind === 'branch') { pc = flow.target; continue }
    const sp = m.sp
    const ev: JalEvent = {
      at: pc, target: flow.target,
      args: [m.get(4), m.get(5), m.get(6), m.get(7)],
      stackArg: (off) => m.stack.get(sp + off),
    }
    if (opts.onJal(ev)) return { end: 'stopped', steps, pc }
    for (const r of CLOBBERED) m.set(r, undefined)
    pc = (pc + 8) >>> 0
  }
}

// ---- encoders (tests and the fixture ROM builder write code with these) ----------------
export const mipsAsm = {
  lui: (rt: number, imm: number) => ((0x0f << 26) | (rt << 16) | (imm & 0xffff)) >>> 0,
  addiu: (rt: number, rs: number, imm: number) => ((0x09 << 26) | (rs << 21) | (rt << 16) | (imm & 0xffff)) >>> 0,
  ori: (rt: number, rs: number, imm: number) => ((0x0d << 26) | (rs << 21) | (rt << 16) | (imm & 0xffff)) >>> 0,
  sw: (rt: number, off: number, base: number) => ((0x2b << 26) | (base << 21) | (rt << 16) | (off & 0xffff)) >>> 0,
  lw: (rt: number, off: number, base: number) => ((0x23 << 26) | (base << 21) | (rt << 16) | (off & 0xffff)) >>> 0,
  jal: (target: number) => ((0x03 << 26) | ((target >>> 2) & 0x03ffffff)) >>> 0,
  j: (target: number) => ((0x02 << 26) | ((target >>> 2) & 0x03ffffff)) >>> 0,
  /** `b` by a word offset relative to the delay slot. */
  b: (words: number) => ((0x04 << 26) | (words & 0xffff)) >>> 0,
  bne: (rs: number, rt: number, words: number) => ((0x05 << 26) | (rs << 21) | (rt << 16) | (words & 0xffff)) >>> 0,
  jrRa: () => ((RA << 21) | 0x08) >>> 0,
  move: (rd: number, rs: number) => ((rs << 21) | (rd << 11) | 0x25) >>> 0,
  nop: () => 0,
  /** A full 32-bit constant into `rt` as the compiler writes it: lui + addiu (carry-adjusted). */
  li32: (rt: number, v: number): number[] => {
    const lo = v & 0xffff
    const hi = ((v >>> 16) + (lo & 0x8000 ? 1 : 0)) & 0xffff
    return [mipsAsm.lui(rt, hi), mipsAsm.addiu(rt, rt, lo)]
  },
}
