/**
 * GFShader entries (gf-packages.md §8; SPICA `GFShader.cs`): the nested packages of `0.bin`
 * entries 2 and 3 hold one shader per entry, named; a material names the one that supplies its
 * TexEnv stages (`fragmentShader`). Only the fragment part is read here: the six stages'
 * SOURCE/OPERAND/COMBINER/COLOR/SCALE registers, TEXENV_UPDATE_BUFFER and TEXENV_BUFFER_COLOR.
 *
 * Layout relative to the entry start: u32 magic, u32 count, padding to 16, GFSection (16 bytes),
 * char[0x40] name, u32 hash, u32 count, padding to 16 (→ 0x70), u32 command bytes, u32 command
 * count, u32 command hash, u32 padding, char[0x40] file name, then the command words (at 0xC0).
 */
import { Reader } from '../../binary/reader'
import { FormatError } from '../../binary/errors'
import type { GfSet } from './gf-set'
import { entryBytes } from './package'
import { picaRegisters, picaWrites, readPicaCommands } from './pica-commands'

/** One TexEnv stage's raw registers (gf-packages.md §8 bit layouts). */
export interface GfTexEnvRegs {
  source: number
  operand: number
  combiner: number
  color: number
  scale: number
}

export interface GfShader {
  name: string
  /** Six stages; a stage the shader does not write is undefined (pass-through). */
  stages: (GfTexEnvRegs | undefined)[]
  /** GPUREG_TEXENV_UPDATE_BUFFER (0xE0) and GPUREG_TEXENV_BUFFER_COLOR (0xFD); 0 when not written. */
  updateBuffer: number
  bufferColor: number
  /** Whether any TexEnv register was written (a shader without them is vertex-only). */
  hasTexEnv: boolean
}

/** TexEnv stage register bases (stages 0–5). */
export const TEXENV_BASES = [0xc0, 0xc8, 0xd0, 0xd8, 0xf0, 0xf8] as const

const NAME_AT = 0x20
const COMMANDS_LENGTH_AT = 0x70
const COMMANDS_AT = 0xc0

/** Reads one GFShader entry; a FormatError names the file, structure and offset. */
export function readGfShader(bytes: Uint8Array, where: { file?: string; base?: number; label?: string } = {}): GfShader {
  const r = new Reader(bytes, { file: where.file, base: where.base ?? 0, structure: where.label ?? 'GFShader' })
  const name = r.asciiAt(NAME_AT, 0x40, 'shader name')
  const length = r.u32At(COMMANDS_LENGTH_AT, 'command bytes')
  if (length % 4) throw r.error(`command length ${length} is not a multiple of 4`, COMMANDS_LENGTH_AT)
  const regs = picaRegisters(picaWrites(readPicaCommands(r, COMMANDS_AT, length, `${r.structure} '${name}' commands`)))
  let hasTexEnv = regs.has(0xe0) || regs.has(0xfd)
  const stages = TEXENV_BASES.map((b) => {
    if (![0, 1, 2, 3, 4].some((k) => regs.has(b + k))) return undefined
    hasTexEnv = true
    // A register the shader leaves alone keeps its reset value: sources Previous, the rest 0.
    return { source: regs.get(b) ?? 0x000f000f, operand: regs.get(b + 1) ?? 0, combiner: regs.get(b + 2) ?? 0, color: regs.get(b + 3) ?? 0, scale: regs.get(b + 4) ?? 0 }
  })
  return { name, stages, updateBuffer: regs.get(0xe0) ?? 0, bufferColor: regs.get(0xfd) ?? 0, hasTexEnv }
}

/**
 * Every readable GFShader of the set's `0.bin` shader packages (nested packages), by name (the
 * first of a name wins). An entry that cannot be read (a stub, a truncated list) is a warning.
 */
export function setShaders(set: GfSet): { shaders: Map<string, GfShader>; warnings: string[] } {
  const shaders = new Map<string, GfShader>()
  const warnings: string[] = []
  const f = set.files.find((x) => x.file === '0.bin')
  if (!f) return { shaders, warnings }
  for (const e of f.entries) {
    if (e.kind !== 'package' || !e.children) continue
    const outer = entryBytes(f.bytes, f.pkg, e.index)
    for (const c of e.children) {
      const bytes = outer.subarray(c.offset - e.offset, c.offset - e.offset + c.length)
      if (bytes.byteLength < COMMANDS_AT) continue // too short for the header: no commands to read
      try {
        const s = readGfShader(bytes, { file: f.file, base: c.offset, label: `entry ${e.index}.${c.index} GFShader` })
        if (!shaders.has(s.name)) shaders.set(s.name, s)
      } catch (err) {
        if (!(err instanceof FormatError)) throw err
        warnings.push(err.message)
      }
    }
  }
  return { shaders, warnings }
}
