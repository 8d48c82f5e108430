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
import type { CatalogAccess } from '../plugin/context'
import { writeFileAtomic } from '../node/atomic'
import { guardOutput, realPathLoose } from '../node/output-guard'
import { buildAssetScene } from './scene-builders'

export interface ExportSceneOptions {
  /** Replace an existing output (default false: refuse with OutputExists, `code` 'exists' crosses the API). */
  overwrite?: boolean
  /** The option naming the output in messages (the CLI's `--out`; none in the app). */
  flag?: string
  /** How the user agrees to replacing, for the "exists" message (the CLI: pass --force). */
  agree?: string
  signal?: AbortSignal
  /** More paths never to write over (the catalog file, …); the asset's source always is one. */
  protect?: string[]
  onProgress?: (stage: SceneExportStage, fraction: number) => void
}

/** Builds, encodes and writes `id`'s scene to `out` (missing parent folders are created). */
export async function exportSceneGlb(catalog: CatalogAccess | null, id: number | 'demo', out: string, o: ExportSceneOptions = {}): Promise<SceneExportSummary> {
  const abs = path.resolve(out)
  const guard = (sources: string[]) =>
    guardOutput({
      out: abs, inputs: o.protect, sources: [...sources, ...(catalog ? catalogSourcesAround(catalog, abs) : [])], force: o.overwrite === true,
      flag: o.flag ?? '', agree: o.agree ?? 'choose another name or confirm replacing it',
    })
  guard([]) // before any work
  const progress = o.onProgress ?? (() => {})
  progress('build', 0)
  const { scene, asset, source } = await buildAssetScene(catalog, id, { signal: o.signal })
  guard(source ? [source.path] : []) // the asset's own source (a GF set is a folder): never hit
  o.signal?.throwIfAborted()
  progress('encode', 0.5)
  const glb = await exportGlb(scene, { skipValidation: true })
  o.signal?.throwIfAborted()
  progress('write', 0.9)
  await makeParent(abs)
  guard(source ? [source.path] : []) // a file may have appeared meanwhile
  await writeFileAtomic(abs, glb)
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

/**
 * The catalog's sources the output would hit: one at the output's path or at a folder above it
 * (a GF set), looked up by path as given and with links resolved (a few lookups, not a scan).
 */
function catalogSourcesAround(catalog: CatalogAccess, out: string): string[] {
  const hits: string[] = []
  for (const start of new Set([out, realPathLoose(out)])) {
    for (let at = start; ; at = path.dirname(at)) {
      const s = catalog.sourceByPath(at)
      if (s) hits.push(s.path)
      if (path.dirname(at) === at) break
    }
  }
  return hits
}
