/**
 * Collision height map (pokemon-snap.md §3.10, [D: src/world/ground.c, ground_int.c]): a BSP of
 * 2D lines over patches whose planes are stored with coefficients ordered (x, z, y).
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'

export interface HeightMap {
  addr: number
  patches: number
  tree: number
}

export interface GroundHit {
  /** Height in game units (metres × 100). */
  y: number
  /** Y-up normal. */
  normal: [number, number, number]
  surfaceType: number
  patch: number
}

export function readHeightMap(map: AddressMap, addr: number): HeightMap {
  const r = map.view(addr, 8, 'HeightMap', 'Collision (HeightMap)')
  return { addr, patches: r.u32At(0, 'HeightMap.patches'), tree: r.u32At(4, 'HeightMap.tree') }
}

/**
 * Ground under world position (X, Z) in game units, or null when the tree leads to no patch.
 * The walk is bounded (a corrupt tree cannot loop forever).
 */
export function groundAt(map: AddressMap, hm: HeightMap, X: number, Z: number, maxSteps = 4096): GroundHit | null {
  const x = X / 100, z = Z / 100
  let n = 0
  let patch = -1
  for (let step = 0; ; step++) {
    if (step >= maxSteps) throw new FormatError(`height-map tree walk exceeded ${maxSteps} steps (a cycle?)`, { file: map.file, structure: `HeightMap ${hex(hm.addr)}.tree` })
    const r = map.view(hm.tree + n * 0x1c, 0x1c, 'TreeNode', `HeightMap.tree[${n}]`)
    const side = r.f32At(0, 'TreeNode.lineA') * x + r.f32At(4, 'TreeNode.lineB') * z + r.f32At(8, 'TreeNode.lineC') > 0
    const child = r.i32At(side ? 0x0c : 0x10, side ? 'TreeNode.leftChild' : 'TreeNode.rightChild')
    const p = r.i32At(side ? 0x14 : 0x18, side ? 'TreeNode.leftPatch' : 'TreeNode.rightPatch')
    if (p !== -1) { patch = p; break }
    if (child === -1) return null
    n = child
  }
  const pr = map.view(hm.patches + patch * 0x14, 0x14, 'Patch', `HeightMap.patches[${patch}]`)
  const A = pr.f32At(0, 'Patch.A'), B = pr.f32At(4, 'Patch.B'), C = pr.f32At(8, 'Patch.C'), D = pr.f32At(12, 'Patch.D')
  const h = C !== 0 ? -(A * x + B * z + D) / C : 0
  const l = Math.hypot(A, C, B) || 1
  return { y: h * 100, normal: [A / l, C / l, B / l], surfaceType: (pr.u32At(16, 'Patch.surfaceType') >>> 8) & 0xffffff, patch }
}
