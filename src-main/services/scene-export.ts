/**
 * Exporting an asset's scene as glTF binary: the one path the CLI (`modbench export`) and the UI
 * (`scene:export`, every view's Export .glb) share. Builds the scene with the manifest's scene
 * builder, encodes it with the shared exporter, writes it atomically; never over an input, and over
 * an existing file only when the caller says `overwrite`.
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { exportGlb } from '../../src-shared/export/gltf'
import type { SceneExportStage, SceneExportSummary } from '../../src-shared/api/scene'
import type { Catalog } from '../catalog/catalog'
import { writeFileAtomic } from '../node/atomic'
import { buildAssetScene } from './scene-builders'

/** The output exists and the caller did not allow replacing it: `code` 'exists' crosses the API. */
export class OutputExistsError extends Error {
  readonly code = 'exists'
  constructor(readonly out: string) {
    super(`${out} already exists; choose another name or confirm replacing it`)
    this.name = 'OutputExistsError'
  }
}

export interface ExportSceneOptions {
  /** Replace an existing output (default false: refuse with OutputExistsError). */
  overwrite?: boolean
  signal?: AbortSignal
  /** More paths never to write over (the catalog file, …); the asset's source always is one. */
  protect?: string[]
  onProgress?: (stage: SceneExportStage, fraction: number) => void
}

/** Builds, encodes and writes `id`'s scene to `out` (missing parent folders are created). */
export async function exportSceneGlb(catalog: Catalog | null, id: number | 'demo', out: string, o: ExportSceneOptions = {}): Promise<SceneExportSummary> {
  const abs = path.resolve(out)
  const refuseExisting = async () => {
    const st = await fsp.stat(abs).catch(() => null)
    if (st?.isDirectory()) throw new Error(`${abs} is a folder; give a file name, e.g. ${path.join(abs, 'model.glb')}`)
    if (st && !o.overwrite) throw new OutputExistsError(abs)
  }
  await refuseExisting() // before any work
  const progress = o.onProgress ?? (() => {})
  progress('build', 0)
  const { scene, asset, source } = await buildAssetScene(catalog, id, { signal: o.signal })
  o.signal?.throwIfAborted()
  progress('encode', 0.5)
  const glb = await exportGlb(scene, { skipValidation: true })
  o.signal?.throwIfAborted()
  progress('write', 0.9)
  await makeParent(abs)
  await refuseExisting() // a file may have appeared meanwhile
  await writeFileAtomic(abs, glb, [...(source ? [source.path] : []), ...(o.protect ?? [])])
  progress('done', 1)
  return {
    id,
    kind: asset?.kind ?? 'demo',
    name: asset?.name ?? scene.name,
    out: abs,
    bytes: glb.byteLength,
    nodes: scene.nodes.length,
    meshes: scene.meshes.length,
    materials: scene.materials.length,
    textures: scene.textures.length,
    skins: scene.skins.length,
    animations: scene.animations.length,
    curves: scene.curves.length,
  }
}

/** Creates the output's parent folders (friendlier than failing), with a clear message when a file is in the way. */
async function makeParent(out: string): Promise<void> {
  const dir = path.dirname(out)
  try {
    await fsp.mkdir(dir, { recursive: true })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new Error(`cannot create the output folder ${dir}: a file is in the way`)
    throw new Error(`cannot create the output folder ${dir}: ${(e as Error).message}`)
  }
}
