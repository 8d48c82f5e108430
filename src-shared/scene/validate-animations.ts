/** Animation checks of a neutral scene (see validate.ts for the rules). */
import { finiteAll, type Bad, type ProblemList } from './problem-list'
import type { Animation, Scene } from './types'

export function checkAnimation(a: Animation, p: string, scene: Scene, c: ProblemList): void {
  const bad = c.bad
  if (typeof a.name !== 'string') bad(`${p}.name`, 'must be a string')
  if (!Number.isFinite(a.duration) || a.duration < 0) bad(`${p}.duration`, `must be a finite number ≥ 0, got ${a.duration}`)
  if (!Number.isFinite(a.frameRate) || a.frameRate <= 0) bad(`${p}.frameRate`, `must be a positive number, got ${a.frameRate}`)
  if (a.loopStart !== undefined && !(Number.isFinite(a.loopStart) && a.loopStart >= 0 && a.loopStart <= a.duration)) bad(`${p}.loopStart`, `must be within [0, duration], got ${a.loopStart}`)
  const targets = new Set<string>()
  const nNodes = scene.nodes.length
  ;(a.channels ?? []).forEach((ch, ci) => {
    const cp = `${p}.channels[${ci}]`
    c.index(`${cp}.node`, ch.node, nNodes, 'node')
    if (!['translation', 'rotation', 'scale'].includes(ch.path)) return bad(`${cp}.path`, `unknown path ${String(ch.path)}`)
    if (!['STEP', 'LINEAR', 'CUBICSPLINE'].includes(ch.interpolation)) return bad(`${cp}.interpolation`, `unknown interpolation ${String(ch.interpolation)}`)
    const key = `${ch.node}/${ch.path}`
    if (targets.has(key)) bad(cp, `a second channel for node ${ch.node} ${ch.path}`)
    targets.add(key)
    const keys = keyTimes(bad, `${cp}.times`, ch.times)
    if (keys < 0) return
    if (ch.interpolation === 'CUBICSPLINE' && keys < 2) bad(`${cp}.times`, 'CUBICSPLINE needs at least two keys')
    const n = ch.path === 'rotation' ? 4 : 3
    const per = n * (ch.interpolation === 'CUBICSPLINE' ? 3 : 1)
    if (!(ch.values instanceof Float32Array)) return bad(`${cp}.values`, 'must be a Float32Array')
    if (ch.values.length !== keys * per) return bad(`${cp}.values`, `has ${ch.values.length} numbers, expected ${keys} keys × ${per} = ${keys * per}`)
    const f = finiteAll(ch.values)
    if (f >= 0) return bad(`${cp}.values[${f}]`, `not a finite number (${ch.values[f]})`)
    if (ch.path === 'rotation') {
      for (let k = 0; k < keys; k++) {
        const b = k * per + (ch.interpolation === 'CUBICSPLINE' ? 4 : 0)
        const l = Math.hypot(ch.values[b], ch.values[b + 1], ch.values[b + 2], ch.values[b + 3])
        if (Math.abs(l - 1) > 0.01) return bad(`${cp}.values`, `key ${k}: quaternion length ${l.toFixed(4)} is not 1`)
      }
    }
  })
  checkTracks(a, p, scene, c)
}

/** Texture swaps, visibility, UV and colour tracks. */
function checkTracks(a: Animation, p: string, scene: Scene, c: ProblemList): void {
  const bad = c.bad
  const nMaterials = scene.materials.length
  ;(a.textureSwaps ?? []).forEach((tr, i) => {
    const tp = `${p}.textureSwaps[${i}]`
    c.index(`${tp}.material`, tr.material, nMaterials, 'material')
    const keys = keyTimes(bad, `${tp}.times`, tr.times)
    if (keys < 0) return
    if (!(tr.textures instanceof Uint32Array) || tr.textures.length !== keys) return bad(`${tp}.textures`, `must be a Uint32Array of ${keys} texture indices`)
    for (let k = 0; k < keys; k++) if (tr.textures[k] >= scene.textures.length) return bad(`${tp}.textures[${k}]`, `texture index ${tr.textures[k]} out of range (${scene.textures.length} textures)`)
    if (tr.period !== undefined && !(Number.isFinite(tr.period) && tr.period > 0)) return bad(`${tp}.period`, `must be a positive number of seconds, got ${tr.period}`)
    if (tr.loopStart !== undefined && !(Number.isFinite(tr.loopStart) && tr.loopStart >= 0 && tr.loopStart <= (tr.period ?? Infinity))) return bad(`${tp}.loopStart`, `must be within [0, period], got ${tr.loopStart}`)
    if (tr.start !== undefined && !(Number.isFinite(tr.start) && tr.start >= 0)) return bad(`${tp}.start`, `must be a non-negative number of seconds, got ${tr.start}`)
    if (tr.frameRate !== undefined && !(Number.isFinite(tr.frameRate) && tr.frameRate > 0)) return bad(`${tp}.frameRate`, `must be a positive number, got ${tr.frameRate}`)
  })
  ;(a.visibility ?? []).forEach((tr, i) => {
    const tp = `${p}.visibility[${i}]`
    c.index(`${tp}.node`, tr.node, scene.nodes.length, 'node')
    const keys = keyTimes(bad, `${tp}.times`, tr.times)
    if (keys >= 0 && (!(tr.visible instanceof Uint8Array) || tr.visible.length !== keys)) bad(`${tp}.visible`, `must be a Uint8Array of ${keys} flags`)
  })
  for (const kind of ['uvTracks', 'colorTracks'] as const) {
    ;(a[kind] ?? []).forEach((tr, i) => {
      const tp = `${p}.${kind}[${i}]`
      c.index(`${tp}.material`, tr.material, nMaterials, 'material')
      const keys = keyTimes(bad, `${tp}.times`, tr.times)
      if (keys < 0) return
      if (!(tr.values instanceof Float32Array) || tr.values.length !== keys * 4) return bad(`${tp}.values`, `must be a Float32Array of ${keys} keys × 4`)
      const f = finiteAll(tr.values)
      if (f >= 0) bad(`${tp}.values[${f}]`, `not a finite number (${tr.values[f]})`)
    })
  }
}

/** Key count of a times array (−1 after recording why it is unusable): finite, ≥ 0, strictly increasing. */
function keyTimes(bad: Bad, path: string, t: unknown): number {
  if (!(t instanceof Float32Array)) return bad(path, 'must be a Float32Array'), -1
  if (t.length === 0) return bad(path, 'needs at least one key'), -1
  for (let k = 0; k < t.length; k++) {
    if (!Number.isFinite(t[k]) || t[k] < 0) return bad(`${path}[${k}]`, `key time ${t[k]} is not a finite number ≥ 0`), -1
    if (k > 0 && !(t[k] > t[k - 1])) return bad(`${path}[${k}]`, `key times must increase (${t[k - 1]} then ${t[k]})`), -1
  }
  return t.length
}
