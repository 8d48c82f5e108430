/**
 * Catalog assets for GF models and motions (issue 11): each GFModel entry of `0.bin` is a
 * `gf-model` asset and each GFMotion entry of `4.bin`–`7.bin` a `gf-motion` asset, under their
 * file in the set, searchable by LOD, bone, material and texture names and the §11.9 slot label.
 * An unreadable one is still listed, with its error in metadata.
 */
import type { AssetDraft } from '../../plugin/detector'
import { entryBytes } from '../../../src-shared/formats/gf/package'
import type { GfEntry, GfFile } from '../../../src-shared/formats/gf/gf-set'
import { modelJson, motionJson } from './model-json'
import { parseGfModel } from '../../../src-shared/formats/gf/model'
import { parseGfMotion } from '../../../src-shared/formats/gf/motion'
import { attempt, MOTION_FILES } from '../../../src-shared/formats/gf/set-models'
import { motionLabel } from '../../../src-shared/formats/gf/motion-labels'

/** The asset of a model or motion entry, or null for other entries. */
export function modelOrMotionDraft(f: GfFile, e: GfEntry, key: string, parentKey: string): AssetDraft | null {
  const ctx = { file: f.file, entry: e.index, base: e.offset }
  const locator = { file: f.file, entry: e.index }
  if (e.kind === 'model' && f.file === '0.bin') {
    const r = attempt(() => parseGfModel(entryBytes(f.bytes, f.pkg, e.index), ctx))
    const j = modelJson({ file: f.file, entry: e.index, offset: e.offset, lod: e.index === 0 ? 'high' : 'low', model: r.value, error: r.error })
    // properties set one by one, in the order the spreads gave them (an object spread is a slow
    // path in V8, and indexing builds eight of these per set)
    const metadata: Record<string, unknown> = { lod: j.lod, bones: j.bones.length, meshes: j.meshes, vertices: j.vertices, triangles: j.triangles, materials: j.materials.map((m) => m.name), offset: e.offset, length: e.length }
    if (j.error) metadata.error = j.error
    const tags = ['model', j.lod, `${j.lod} poly`]
    for (const b of j.bones) tags.push(b.name)
    for (const m of j.materials) tags.push(m.name, ...m.textures)
    return { key, parentKey, locator, kind: 'gf-model', name: `${j.name}${j.error ? ' (broken)' : ''}`, metadata, tags }
  }
  if (e.kind === 'motion' && (MOTION_FILES as readonly string[]).includes(f.file)) {
    const r = attempt(() => parseGfMotion(entryBytes(f.bytes, f.pkg, e.index), ctx))
    const label = motionLabel(f.file, e.index)
    const j = motionJson({ file: f.file, entry: e.index, label, motion: r.value, error: r.error })
    const metadata: Record<string, unknown> = { frames: j.frames, loop: j.loop, skeletal: j.skeletal, material: j.material, visibility: j.visibility }
    if (label) metadata.label = label
    metadata.offset = e.offset
    metadata.length = e.length
    if (j.error) metadata.error = j.error
    const tags = ['motion', 'animation', f.file]
    if (label) tags.push(label)
    return { key, parentKey, locator, kind: 'gf-motion', name: `${f.file}/${e.index}${label ? ` ${label}` : ''}${j.error ? ' (broken)' : ''}`, metadata, tags }
  }
  return null
}
