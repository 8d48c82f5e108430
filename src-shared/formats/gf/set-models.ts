/**
 * The models and motions of a parsed set (spec §1): `0.bin` entries 0 (high poly) and 1 (low
 * poly) are GFModels; `4.bin`–`7.bin` entries are GFMotions. Each is parsed on its own, so one
 * broken entry is reported with its error while the others still read.
 */
import { FormatError } from '../../binary/errors'
import { entryBytes } from './package'
import type { GfSet } from './gf-set'
import { parseGfModel, type GfModel } from './model'
import { parseGfMotion, type GfMotion } from './motion'
import { motionLabel } from './motion-labels'

export type GfLod = 'high' | 'low'
export const MOTION_FILES = ['4.bin', '5.bin', '6.bin', '7.bin'] as const

export interface GfModelRef {
  file: string
  entry: number
  /** Absolute offset of the entry in its file. */
  offset: number
  lod: GfLod
  model?: GfModel
  error?: string
}

export interface GfMotionRef {
  file: string
  entry: number
  label?: string
  motion?: GfMotion
  error?: string
}

/** Runs a reader, turning a FormatError into its message (anything else is a bug and propagates). */
export function attempt<T>(f: () => T): { value?: T; error?: string } {
  try {
    return { value: f() }
  } catch (e) {
    if (e instanceof FormatError) return { error: e.message }
    throw e
  }
}

/** Every GFModel entry of 0.bin (entry 0 → high, others → low). */
export function setModels(set: GfSet): GfModelRef[] {
  const f = set.files.find((x) => x.file === '0.bin')
  if (!f) return []
  const out: GfModelRef[] = []
  for (const e of f.entries) {
    if (e.kind !== 'model') continue
    const r = attempt(() => parseGfModel(entryBytes(f.bytes, f.pkg, e.index), { file: f.file, entry: e.index, base: e.offset }))
    out.push({ file: f.file, entry: e.index, offset: e.offset, lod: e.index === 0 ? 'high' : 'low', ...(r.value ? { model: r.value } : { error: r.error }) })
  }
  return out
}

/** Every GFMotion entry of 4.bin–7.bin, in file and entry order. */
export function setMotions(set: GfSet): GfMotionRef[] {
  const out: GfMotionRef[] = []
  for (const name of MOTION_FILES) {
    const f = set.files.find((x) => x.file === name)
    if (!f) continue
    for (const e of f.entries) {
      if (e.kind !== 'motion') continue
      const r = attempt(() => parseGfMotion(entryBytes(f.bytes, f.pkg, e.index), { file: f.file, entry: e.index, base: e.offset }))
      const label = motionLabel(name, e.index)
      out.push({ file: name, entry: e.index, ...(label ? { label } : {}), ...(r.value ? { motion: r.value } : { error: r.error }) })
    }
  }
  return out
}

/** Motion counts of CLI.md `gf motions`: bones, materials and meshes each section animates. */
export function motionCounts(m: GfMotion): { skeletal: number; material: number; visibility: number } {
  return { skeletal: m.skeletal?.length ?? 0, material: new Set(m.material?.map((t) => t.material)).size, visibility: m.visibility?.length ?? 0 }
}

/** The model of a LOD (high = entry 0; low = the first other model entry). */
export function pickModel(models: GfModelRef[], lod: GfLod): GfModelRef | undefined {
  return models.find((m) => m.lod === lod)
}
