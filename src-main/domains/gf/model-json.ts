/**
 * The JSON of `gf models` and `gf motions` (CLI.md "GF package sets"), shared by the commands,
 * the service handlers and the catalog.
 */
import type { GfSet } from '../../../src-shared/formats/gf/gf-set'
import { modelCounts } from '../../../src-shared/formats/gf/model'
import { motionCounts, setModels, setMotions, type GfModelRef, type GfMotionRef } from '../../../src-shared/formats/gf/set-models'

export interface GfModelJson {
  file: string
  entry: number
  lod: 'high' | 'low'
  name: string
  bones: { name: string; parent: string | null }[]
  meshes: number
  vertices: number
  triangles: number
  materials: { name: string; textures: string[] }[]
  error?: string
}

export interface GfMotionJson {
  file: string
  entry: number
  frames: number
  loop: boolean
  skeletal: number
  material: number
  visibility: number
  label?: string
  error?: string
}

export function modelJson(r: GfModelRef): GfModelJson {
  const name = r.lod === 'high' ? 'PM_HighPoly' : 'PM_LowPoly'
  if (!r.model) return { file: r.file, entry: r.entry, lod: r.lod, name, bones: [], meshes: 0, vertices: 0, triangles: 0, materials: [], error: r.error }
  const m = r.model
  return {
    file: r.file, entry: r.entry, lod: r.lod, name,
    bones: m.bones.map((b) => ({ name: b.name, parent: b.parent >= 0 ? m.bones[b.parent]!.name : null })),
    ...modelCounts(m),
    materials: m.materials.map((x) => ({ name: x.name, textures: x.units.map((u) => u.texture) })),
  }
}

export function motionJson(r: GfMotionRef): GfMotionJson {
  // keys in CLI.md's order; set one by one (object spreads are a slow path, and indexing calls this per motion)
  const c = r.motion ? motionCounts(r.motion) : { skeletal: 0, material: 0, visibility: 0 }
  const j: GfMotionJson = { file: r.file, entry: r.entry, frames: r.motion?.frameCount ?? 0, loop: r.motion?.loop ?? false, skeletal: c.skeletal, material: c.material, visibility: c.visibility }
  if (r.label) j.label = r.label
  if (!r.motion) j.error = r.error
  return j
}

export function setModelsJson(set: GfSet): GfModelJson[] {
  return setModels(set).map(modelJson)
}

export function setMotionsJson(set: GfSet): GfMotionJson[] {
  return setMotions(set).map(motionJson)
}
