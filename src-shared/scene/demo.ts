/**
 * The built-in demo scene, made by code: a textured tube skinned to a chain of four bones that
 * bends, waves and hops, a translucent cap riding on the last bone, a textured ground plate and
 * two pillars (static geometry sharing a material), a helix curve and a ground circle. It exercises
 * every part of the neutral model: STEP, LINEAR and CUBICSPLINE channels, a texture-swap track,
 * visibility, UV and colour tracks, all alpha modes, unlit and vertex colours, nearest and linear
 * filtering, repeat/clamp/mirror wrapping, curves and actor metadata. Units are "game units"; the
 * tube is 4 units tall along +Y.
 */
import type { Animation, Channel, Curve, Material, Mesh, Primitive, Scene, SceneNode, Texture } from './types'
import { mat4FromTRS, mat4Invert, quatFromAxisAngle } from './math'

const TUBE_HEIGHT = 4
const BONES = 4
const SEGMENT = TUBE_HEIGHT / BONES

function node(name: string, parent: number, extra: Partial<SceneNode> = {}): SceneNode {
  return { name, parent, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], ...extra }
}

/** A checkerboard with a stripe; `alphaHoles` punches transparent cells (for MASK). */
function checker(name: string, size: number, cell: number, a: number[], b: number[], stripe: number[], alphaHoles = false): Texture {
  const rgba = new Uint8Array(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cx = Math.floor(x / cell)
      const cy = Math.floor(y / cell)
      let c = (cx + cy) % 2 === 0 ? a : b
      if (y >= size / 2 - cell / 2 && y < size / 2 + cell / 2) c = stripe
      const o = (y * size + x) * 4
      rgba[o] = c[0]
      rgba[o + 1] = c[1]
      rgba[o + 2] = c[2]
      rgba[o + 3] = alphaHoles && cx % 3 === 1 && cy % 3 === 1 ? 0 : 255
    }
  }
  return { name, width: size, height: size, rgba, wrapS: 'repeat', wrapT: 'repeat', filter: 'nearest' }
}

/** Open tube along +Y, radius r, skinned to BONES bones with blends around each joint. */
function tube(radius: number, sides: number, ringsPerBone: number): Primitive {
  const rings = BONES * ringsPerBone + 1
  const cols = sides + 1
  const nv = rings * cols
  const positions = new Float32Array(nv * 3)
  const normals = new Float32Array(nv * 3)
  const uvs = new Float32Array(nv * 2)
  const joints = new Uint16Array(nv * 4)
  const weights = new Float32Array(nv * 4)
  for (let r = 0; r < rings; r++) {
    const y = (r / (rings - 1)) * TUBE_HEIGHT
    const along = y / SEGMENT
    const b = Math.min(BONES - 1, Math.floor(along))
    const local = along - b
    // Weight of the bone the vertex lies in, and the neighbour it blends with near a joint.
    let other = -1
    let wb = 1
    if (local < 0.25 && b > 0) {
      other = b - 1
      wb = 0.5 + local * 2
    } else if (local > 0.75 && b < BONES - 1) {
      other = b + 1
      wb = 0.5 + (1 - local) * 2
    }
    for (let s = 0; s < cols; s++) {
      const v = r * cols + s
      const th = (s / sides) * Math.PI * 2
      const c = Math.cos(th)
      const sn = Math.sin(th)
      positions.set([radius * c, y, radius * sn], v * 3)
      normals.set([c, 0, sn], v * 3)
      uvs.set([(s / sides) * 2, 1 - y / TUBE_HEIGHT], v * 2)
      joints.set([b, other >= 0 ? other : 0, 0, 0], v * 4)
      weights.set([wb, other >= 0 ? 1 - wb : 0, 0, 0], v * 4)
    }
  }
  const tris: number[] = []
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = r * cols + s
      const b = a + 1
      const c = a + cols
      const d = c + 1
      // Counter-clockwise seen from outside (normal points away from the axis).
      tris.push(a, c, b, b, c, d)
    }
  }
  return { positions, normals, uvs, joints, weights, indices: new Uint32Array(tris), material: 0 }
}

/** Axis-aligned box centred on the origin with per-face normals and UVs. */
function box(sx: number, sy: number, sz: number, material: number, color?: number[]): Primitive {
  const faces: [number[], number[], number[]][] = [
    // normal, u axis, v axis
    [[1, 0, 0], [0, 0, -1], [0, -1, 0]],
    [[-1, 0, 0], [0, 0, 1], [0, -1, 0]],
    [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
    [[0, -1, 0], [1, 0, 0], [0, 0, -1]],
    [[0, 0, 1], [1, 0, 0], [0, -1, 0]],
    [[0, 0, -1], [-1, 0, 0], [0, -1, 0]],
  ]
  const pos: number[] = []
  const nor: number[] = []
  const uv: number[] = []
  const col: number[] = []
  const idx: number[] = []
  const h = [sx / 2, sy / 2, sz / 2]
  for (const [n, u, v] of faces) {
    const base = pos.length / 3
    for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      for (let k = 0; k < 3; k++) pos.push((n[k] + u[k] * a + v[k] * b) * h[k])
      nor.push(...n)
      uv.push((a + 1) / 2, (b + 1) / 2)
      if (color) col.push(...color)
    }
    // u × v = n for these axes, so (0,1,2) is counter-clockwise seen from outside.
    const cross = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    const ccw = cross[0] * n[0] + cross[1] * n[1] + cross[2] * n[2] > 0
    if (ccw) idx.push(base, base + 1, base + 2, base, base + 2, base + 3)
    else idx.push(base, base + 2, base + 1, base, base + 3, base + 2)
  }
  return {
    positions: new Float32Array(pos),
    normals: new Float32Array(nor),
    uvs: new Float32Array(uv),
    colors: color ? new Float32Array(col) : undefined,
    indices: new Uint32Array(idx),
    material,
  }
}

/** A flat square in the XZ plane facing +Y, with vertex colours shading from centre to rim. */
function plate(size: number, cells: number, material: number): Primitive {
  const n = cells + 1
  const pos = new Float32Array(n * n * 3)
  const nor = new Float32Array(n * n * 3)
  const uv = new Float32Array(n * n * 2)
  const col = new Float32Array(n * n * 4)
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = j * n + i
      const x = (i / cells - 0.5) * size
      const z = (j / cells - 0.5) * size
      pos.set([x, 0, z], v * 3)
      nor.set([0, 1, 0], v * 3)
      uv.set([(i / cells) * 3, (j / cells) * 3], v * 2)
      const d = Math.min(1, Math.hypot(x, z) / (size / 2))
      const shade = 1 - 0.6 * d
      col.set([shade, shade, 0.8 + 0.2 * shade, 1], v * 4)
    }
  }
  const idx: number[] = []
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * n + i
      const b = a + 1
      const c = a + n
      const d = c + 1
      // Seen from +Y, (a, c, b) runs counter-clockwise: x grows to the right, z towards the viewer.
      idx.push(a, c, b, b, c, d)
    }
  }
  return { positions: pos, normals: nor, uvs: uv, colors: col, indices: new Uint32Array(idx), material }
}

function rotationChannelLinear(nodeIndex: number, axis: number[], times: number[], angles: number[]): Channel {
  const values = new Float32Array(times.length * 4)
  angles.forEach((a, k) => values.set(quatFromAxisAngle(axis, a), k * 4))
  return { node: nodeIndex, path: 'rotation', times: new Float32Array(times), values, interpolation: 'LINEAR' }
}

/**
 * CUBICSPLINE rotation for angle(t) = amp·sin(2πt/period + phase) about `axis`, with exact
 * tangents dq/dt = dq/dθ · dθ/dt (so the curve is smooth, as a DCC tool would export it).
 */
function rotationChannelCubic(nodeIndex: number, axis: number[], duration: number, keys: number, amp: number, phase: number): Channel {
  const times = new Float32Array(keys)
  const values = new Float32Array(keys * 12)
  const w = (2 * Math.PI) / duration
  for (let k = 0; k < keys; k++) {
    const t = (k / (keys - 1)) * duration
    times[k] = t
    const th = amp * Math.sin(w * t + phase)
    const dth = amp * w * Math.cos(w * t + phase)
    const q = quatFromAxisAngle(axis, th)
    const c = Math.cos(th / 2) / 2
    const s = -Math.sin(th / 2) / 2
    const dq = [axis[0] * c * dth, axis[1] * c * dth, axis[2] * c * dth, s * dth]
    values.set(dq, k * 12)
    values.set(q, k * 12 + 4)
    values.set(dq, k * 12 + 8)
  }
  return { node: nodeIndex, path: 'rotation', times, values, interpolation: 'CUBICSPLINE' }
}

/** The demo scene. Deterministic: the same call always returns equal data. */
export function demoScene(): Scene {
  const joints = [2, 3, 4, 5]
  return {
    name: 'Demo scene',
    nodes: demoNodes(),
    meshes: demoMeshes(),
    materials: demoMaterials(),
    textures: demoTextures(),
    skins: [{ name: 'tube_skin', joints, inverseBindMatrices: tubeInverseBinds(joints.length), skeleton: 2 }],
    animations: [bendAnimation(), waveAnimation(), hopAnimation()],
    curves: demoCurves(),
    extras: { source: 'modbench demo', actor: { name: 'Tube', bones: joints.length, attachments: { cap: 6 } } },
  }
}

function demoNodes(): SceneNode[] {
  return [
    node('demo_root', -1, { extras: { role: 'root' } }), // 0
    node('tube', -1, { mesh: 0, skin: 0 }), // 1: skinned meshes sit at the root (glTF ignores their transform)
    node('bone0', 0, { extras: { bone: true } }), // 2
    node('bone1', 2, { translation: [0, SEGMENT, 0], extras: { bone: true } }), // 3
    node('bone2', 3, { translation: [0, SEGMENT, 0], extras: { bone: true } }), // 4
    node('bone3', 4, { translation: [0, SEGMENT, 0], extras: { bone: true } }), // 5
    node('cap', 5, { translation: [0, SEGMENT + 0.2, 0], mesh: 1 }), // 6
    node('ground', 0, { mesh: 2 }), // 7
    node('pillar_a', 0, { translation: [2.2, 0.75, -1.5], mesh: 3 }), // 8
    node('pillar_b', 0, { translation: [-2.2, 0.75, -1.5], rotation: quatFromAxisAngle([0, 1, 0], Math.PI / 5), mesh: 3 }), // 9
  ]
}

/** Inverse bind matrices of the tube's joint chain: joint k binds at (0, k·SEGMENT, 0). */
function tubeInverseBinds(count: number): Float32Array {
  const inverseBindMatrices = new Float32Array(count * 16)
  for (let k = 0; k < count; k++) {
    const bind = mat4FromTRS([0, k * SEGMENT, 0], [0, 0, 0, 1], [1, 1, 1])
    inverseBindMatrices.set(mat4Invert(bind)!, k * 16)
  }
  return inverseBindMatrices
}

function demoTextures(): Texture[] {
  return [
    checker('tube_warm', 64, 8, [240, 150, 40], [255, 236, 200], [120, 40, 20]),
    checker('tube_cool', 64, 8, [40, 110, 230], [220, 235, 255], [20, 30, 90]),
    { ...checker('ground_grid', 32, 4, [90, 160, 90], [60, 120, 60], [70, 140, 70], true), wrapS: 'mirror', wrapT: 'repeat', filter: 'linear' },
    { ...checker('pillar_stone', 16, 4, [200, 200, 210], [160, 160, 175], [180, 180, 190]), wrapS: 'clamp', wrapT: 'clamp' },
  ]
}

function demoMaterials(): Material[] {
  return [
    { name: 'tube', baseColor: [1, 1, 1, 1], texture: 0, alphaMode: 'OPAQUE', doubleSided: true },
    { name: 'cap', baseColor: [1, 0.25, 0.2, 0.75], alphaMode: 'BLEND', doubleSided: false },
    { name: 'ground', baseColor: [1, 1, 1, 1], texture: 2, alphaMode: 'MASK', alphaCutoff: 0.5, doubleSided: true, unlit: true, vertexColors: true },
    { name: 'pillar', baseColor: [0.9, 0.9, 0.9, 1], texture: 3, alphaMode: 'OPAQUE', doubleSided: false },
  ]
}

function demoMeshes(): Mesh[] {
  return [
    { name: 'tube', primitives: [tube(0.35, 16, 4)] },
    { name: 'cap', primitives: [box(0.5, 0.4, 0.5, 1)] },
    { name: 'ground', primitives: [plate(6, 6, 2)] },
    { name: 'pillar', primitives: [box(0.5, 1.5, 0.5, 3, [0.8, 0.85, 1, 1])] },
  ]
}

/** LINEAR bends of the chain about Z, a texture swap and a colour track. */
function bendAnimation(): Animation {
  return {
    name: 'bend',
    duration: 2,
    frameRate: 30,
    loop: true,
    channels: [3, 4, 5].map((n) => rotationChannelLinear(n, [0, 0, 1], [0, 0.5, 1, 1.5, 2], [0, 0.5, 0, -0.5, 0])),
    textureSwaps: [{ material: 0, times: new Float32Array([0, 1]), textures: new Uint32Array([0, 1]) }],
    colorTracks: [{ material: 1, times: new Float32Array([0, 1, 2]), values: new Float32Array([1, 0.25, 0.2, 0.75, 1, 0.9, 0.1, 0.9, 1, 0.25, 0.2, 0.75]) }],
  }
}

/** CUBICSPLINE waves about X, a smooth bob of the whole chain, a UV track and the cap's visibility. */
function waveAnimation(): Animation {
  const waveT = [0, 0.75, 1.5, 2.25, 3]
  return {
    name: 'wave',
    duration: 3,
    frameRate: 24,
    loop: true,
    channels: [
      ...[3, 4, 5].map((n, k) => rotationChannelCubic(n, [1, 0, 0], 3, 7, 0.45, k * 0.9)),
      {
        node: 2,
        path: 'translation',
        times: new Float32Array(waveT),
        // in-tangent, value, out-tangent per key: a smooth bob of the whole chain.
        values: new Float32Array(waveT.flatMap((t) => {
          const y = 0.25 * Math.sin((2 * Math.PI * t) / 3)
          const dy = 0.25 * ((2 * Math.PI) / 3) * Math.cos((2 * Math.PI * t) / 3)
          return [0, dy, 0, 0, y, 0, 0, dy, 0]
        })),
        interpolation: 'CUBICSPLINE',
      },
    ],
    uvTracks: [{ material: 2, times: new Float32Array([0, 3]), values: new Float32Array([0, 0, 1, 1, 1, 0, 1, 1]) }],
    visibility: [{ node: 6, times: new Float32Array([0, 1.5, 2.25]), visible: new Uint8Array([1, 0, 1]) }],
  }
}

/** STEP keys (a hop and a squash), a LINEAR turn and a texture swap; does not loop. */
function hopAnimation(): Animation {
  return {
    name: 'hop',
    duration: 1,
    frameRate: 12,
    loop: false,
    channels: [
      { node: 2, path: 'translation', times: new Float32Array([0, 0.25, 0.5, 0.75]), values: new Float32Array([0, 0, 0, 0, 0.3, 0, 0, 0.6, 0, 0, 0.3, 0]), interpolation: 'STEP' },
      { node: 5, path: 'scale', times: new Float32Array([0, 0.5]), values: new Float32Array([1, 1, 1, 1.4, 0.8, 1.4]), interpolation: 'STEP' },
      rotationChannelLinear(2, [0, 1, 0], [0, 1], [0, Math.PI / 2]),
    ],
    textureSwaps: [{ material: 0, times: new Float32Array([0, 0.5]), textures: new Uint32Array([1, 0]) }],
  }
}

/** A helix around the tube and a closed ring on the ground. */
function demoCurves(): Curve[] {
  const helixPoints = new Float32Array(65 * 3)
  for (let i = 0; i <= 64; i++) {
    const a = (i / 64) * Math.PI * 4
    helixPoints.set([1.2 * Math.cos(a), (i / 64) * TUBE_HEIGHT, 1.2 * Math.sin(a)], i * 3)
  }
  const circle = new Float32Array(32 * 3)
  for (let i = 0; i < 32; i++) {
    const a = (i / 32) * Math.PI * 2
    circle.set([2.6 * Math.cos(a), 0.02, 2.6 * Math.sin(a)], i * 3)
  }
  return [
    { name: 'helix', points: helixPoints, color: [0.1, 0.9, 0.9], extras: { kind: 'path' } },
    { name: 'ring', points: circle, closed: true, node: 0, color: [1, 0.8, 0.1] },
  ]
}
