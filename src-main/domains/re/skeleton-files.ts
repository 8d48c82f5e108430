/**
 * Node side of `.mesh` files and `--skeleton SKEL` (CLI.md "RE Engine motions", spec re-motlist
 * §15): reading a mesh or a skeleton source with errors that name the user's path.
 */
import { inFile } from '../../../src-shared/binary'
import { motionSceneWithSkeleton, readMesh, readSkeletonSource, type MotionFileScene, type ReMesh, type SkeletonSource } from '../../../src-shared/formats/re'
import { loadMotionFile, readBytes, type LoadedMotionFile } from './files'

/** A `.mesh.*` file (its suffix picks the layout, §15.1). */
export async function loadMesh(p: string): Promise<ReMesh> {
  const bytes = await readBytes(p)
  return inFile(p, () => readMesh(bytes, p))
}

/** `--skeleton SKEL`: a `.mesh.*`, or a motlist/mot with bone headers. */
export async function loadSkeletonSource(p: string): Promise<SkeletonSource> {
  const bytes = await readBytes(p)
  return inFile(p, () => readSkeletonSource(bytes, p))
}

/** `loadSkeletonSource` when a path is given, else null. */
export async function maybeSkeleton(p: string | undefined): Promise<SkeletonSource | null> {
  return p === undefined ? null : loadSkeletonSource(p)
}

/**
 * The scene of a motion file over its bone headers merged with SKEL's bones (when given), plus
 * SKEL's mesh (LOD 0) unless `noMesh`; a file without bone headers and no SKEL fails naming
 * `--skeleton`. Errors about the motions name FILE; errors about the mesh name SKEL.
 */
export async function motionSceneWithSkeletonFile(file: string, skeleton: string | undefined, motion?: number | 'none', noMesh?: boolean): Promise<{ loaded: LoadedMotionFile; built: MotionFileScene & { mesh: boolean } }> {
  const loaded = await loadMotionFile(file)
  const source = await maybeSkeleton(skeleton)
  const built = inFile(file, () => motionSceneWithSkeleton(loaded.file, source, { motion, noMesh }))
  return { loaded, built }
}
