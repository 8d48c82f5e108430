/**
 * Catalog detector for RE Engine `.mesh.*` files (spec re-motlist §15): "MESH" at 0 with a
 * `.mesh.N` name or a known internal version → source and asset kind `re-mesh`, with the
 * skeleton and submesh counts in the metadata and the character ID of the folder naming
 * (src-shared/formats/re/character.ts) in the metadata and tags, so a motlist finds its meshes.
 */
import * as path from 'node:path'
import type { FileDetector } from '../../plugin/detector'
import { MESH_INTERNAL_LAYOUTS, MESH_MAGIC, describeMesh, isMeshName, readMesh, reCharacterId } from '../../../src-shared/formats/re'

function u32(b: Uint8Array, o: number): number {
  return b.byteLength >= o + 4 ? (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0 : -1
}

export const reMeshDetector: FileDetector = {
  id: 're-mesh',
  kind: 're-mesh',
  matchContent: (input) => u32(input.head, 0) === MESH_MAGIC && (isMeshName(input.name) || MESH_INTERNAL_LAYOUTS.has(u32(input.head, 4))),
  extensions: /\.mesh\.\d+$/i,
  enumerate(bytes, input) {
    const mesh = readMesh(bytes, input.path)
    const d = describeMesh(mesh)
    const character = reCharacterId(input.path)
    const lods = d.lods.map((l) => ({
      submeshes: l.meshes.length,
      vertices: l.meshes.reduce((n, m) => n + m.vertices, 0),
      triangles: l.meshes.reduce((n, m) => n + m.triangles, 0),
    }))
    const metadata = {
      version: d.version,
      game: mesh.layout.game,
      layout: mesh.layout.name,
      bones: d.bones.length,
      submeshes: lods[0]?.submeshes ?? 0,
      vertices: lods[0]?.vertices ?? 0,
      triangles: lods[0]?.triangles ?? 0,
      lods,
      materials: d.materials,
      ...(character ? { character } : {}),
      ...(mesh.warnings.length ? { warnings: mesh.warnings } : {}),
    }
    return {
      kind: 're-mesh',
      assets: [{ key: 'file', kind: 're-mesh', name: path.basename(input.path), locator: {}, metadata, tags: ['re', 'mesh', mesh.layout.game, ...(character ? [character] : [])] }],
      metadata: { format: 'mesh', version: d.version, internalVersion: mesh.version, ...(character ? { character } : {}) },
    }
  },
}
