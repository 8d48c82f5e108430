/**
 * Service handlers of the pose editor's mesh (src-shared/api/re.ts `re:findMesh`, `re:openMesh`):
 * the character's meshes found beside a motlist (the same folder on disk, then the catalog's
 * meshes paired by the game's folder naming, pairing.ts), and a template's skeleton scene with a
 * mesh's LOD 0 skinned over it (re export --skeleton's scene, no motion).
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import type { Handlers } from '../../plugin/context'
import { inFile } from '../../../src-shared/binary'
import { isMeshName, motionSceneWithSkeleton, skeletonOf, skeletonWith, type MotBone, type MotionFile } from '../../../src-shared/formats/re'
import { loadMotionFile } from './files'
import { loadSkeletonSource } from './skeleton-files'
import { pairedMeshes } from './pairing'
import { skeletonArrays } from './skeleton-arrays'

/** `.mesh.*` files in the folder of `file`, by name. */
async function meshesBeside(file: string): Promise<string[]> {
  const dir = path.dirname(file)
  const names = await fsp.readdir(dir).catch(() => [] as string[])
  return names.filter(isMeshName).sort().map((n) => path.join(dir, n))
}

/**
 * The bones a motion file is edited with: its own bone headers; without them, those of `skeleton`
 * (a mesh or a mot/motlist with headers), else none.
 */
export async function editingBones(f: MotionFile, file: string, skeleton: string | undefined): Promise<MotBone[]> {
  const own = skeletonOf(f)
  if ((own && own.length) || skeleton === undefined) return own ?? []
  const source = await loadSkeletonSource(skeleton)
  return inFile(file, () => skeletonWith(f, source)?.bones ?? [])
}

export const reMeshHandlers: Handlers = {
  're:findMesh': async (req, ctx) => {
    const file = path.resolve(ctx.allowPath(req.path, 'read'))
    const found = [...(await meshesBeside(file)), ...pairedMeshes(ctx.catalog, file).map((a) => a.sourcePath!)]
    const meshes = [...new Set(found.map((p) => path.resolve(p)))]
    for (const m of meshes) ctx.grantPath(m)
    return { meshes }
  },
  're:openMesh': async (req, ctx) => {
    const template = ctx.allowPath(req.template, 'read')
    const mesh = ctx.allowPath(req.mesh, 'read')
    const f = await loadMotionFile(template)
    const source = await loadSkeletonSource(mesh)
    if (source.kind !== 'mesh') throw new Error(`${req.mesh} is not a .mesh file`)
    const built = inFile(template, () => motionSceneWithSkeleton(f.file, source, { motion: 'none' }))
    const own = skeletonOf(f.file)
    // the editor's bones: the template's own headers, else the mesh's (the merged list starts with the own ones)
    const bones = own && own.length ? own : (skeletonWith(f.file, source)?.bones ?? [])
    return { path: req.mesh, skeleton: skeletonArrays(bones), scene: built.scene, boneNodes: built.boneNodes.slice(0, bones.length), warnings: [...f.warnings, ...built.warnings] }
  },
}
