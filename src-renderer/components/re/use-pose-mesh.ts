/**
 * The pose editor's mesh (issue 21 item 4): the character's `.mesh.*` shown skinned over the
 * template's bones (lit, one colour per material name: the scene `re export --skeleton` writes,
 * without motions). Found by itself where the game lays it out (`re:findMesh`: the motlist's
 * folder, then the catalog's meshes of the same character), or chosen with "Open mesh…".
 */
import { computed, shallowRef } from 'vue'
import type { ReSkeleton } from '@shared/api/re'
import type { Scene } from '@shared/scene/types'
import { bridge } from '../../bridge'

export interface PoseMesh {
  path: string
  scene: Scene
  boneNodes: number[]
  /** The editor's bones with this mesh (the template's own, else the mesh's). */
  skeleton: ReSkeleton
  warnings: string[]
}

export function usePoseMesh() {
  const mesh = shallowRef<PoseMesh | null>(null)
  /** The mesh's path for the motion, export and save channels (`skeleton`), or undefined. */
  const path = computed(() => mesh.value?.path)

  /** The first mesh of the template's character, or null (a failed look-up is no mesh). */
  async function find(template: string): Promise<string | null> {
    try {
      return (await bridge.invoke('re:findMesh', { path: template })).meshes[0] ?? null
    } catch {
      return null
    }
  }

  /**
   * Loads `meshPath` (or the one found beside the template) over the template's skeleton; null
   * when there is none. A chosen mesh that fails throws; a found one that fails is skipped.
   */
  async function load(template: string, meshPath?: string): Promise<PoseMesh | null> {
    const p = meshPath ?? (await find(template))
    if (!p) {
      mesh.value = null
      return null
    }
    try {
      const r = await bridge.invoke('re:openMesh', { template, mesh: p })
      mesh.value = { path: r.path, scene: r.scene, boneNodes: r.boneNodes, skeleton: r.skeleton, warnings: r.warnings }
    } catch (e) {
      mesh.value = null
      if (meshPath) throw e
    }
    return mesh.value
  }

  /** The view to show for the editor's own pose: the mesh scene, or null (the bare skeleton). */
  function view(): { scene: Scene; boneNodes: number[] } | null {
    return mesh.value ? { scene: mesh.value.scene, boneNodes: mesh.value.boneNodes } : null
  }

  const name = computed(() => mesh.value?.path.split(/[\\/]/).pop() ?? null)
  return { mesh, path, name, load, view, clear: () => (mesh.value = null) }
}
