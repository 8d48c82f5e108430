/**
 * The structure step of a Stadium model scene: what the conversion would otherwise read from the
 * module bytes. `loadModel` has already walked the geo layout and run the display lists; this
 * decodes every texture the model's materials can show (their own texture and every frame of
 * their texture-animation channel, with their palette and bank, §7) and samples every joint of
 * every skeletal animation at each integer frame (§12). Decode failures are kept as the Error,
 * reported by the conversion where a material uses them; a sampling error is fatal, as before.
 */
import type { JointPose } from './joint-math'
import { decodeModelTexture } from './model-header'
import type { StadiumModel } from './model'
import type { MaterialState } from './model-graph'
import { sampleJoint } from './skeletal-anim'

export interface DecodedTexture {
  width: number
  height: number
  rgba: Uint8Array
}

export interface StadiumSceneData {
  /** Decoded pixels (or the decode error) by `pixelKey`. */
  pixels: Map<string, DecodedTexture | Error>
  /** Joint poses per animation, frame (max(1, frameCount) of them) and bone index (joint bones only). */
  poses: JointPose[][][]
}

/** Texture `ti` with palette `pi` in palette bank `bank`. */
export const pixelKey = (ti: number, pi: number, bank: number): string => `${ti}:${pi}:${bank}`

/** The palette bank material `mat` binds (its render tile's palette, §7.4). */
export function materialBank(m: StadiumModel, mat: MaterialState): number {
  return m.dl?.materialTiles?.get(mat.at)?.palette ?? 0
}

function modelPixels(m: StadiumModel): StadiumSceneData['pixels'] {
  const pixels: StadiumSceneData['pixels'] = new Map()
  const states = new Set<MaterialState>()
  for (const t of m.dl?.triangles ?? []) if (t.draw.material) states.add(t.draw.material)
  for (const ms of states) {
    const indices = new Set<number>(ms.textureIndex >= 0 ? [ms.textureIndex] : [])
    if (ms.texAnimChannel >= 0) for (const ta of m.textureAnimations) for (const x of ta.channels[ms.texAnimChannel]?.stream ?? []) indices.add(x)
    const bank = materialBank(m, ms)
    for (const ti of indices) {
      const key = pixelKey(ti, ms.paletteIndex, bank)
      if (pixels.has(key)) continue
      try {
        pixels.set(key, decodeModelTexture(m.module, m.tables, ti, ms.paletteIndex, bank))
      } catch (e) {
        pixels.set(key, e as Error)
      }
    }
  }
  return pixels
}

function animationPoses(m: StadiumModel): JointPose[][][] {
  const { levels, bones } = m.graph
  return m.animations.map((a) => {
    const frames: JointPose[][] = []
    for (let f = 0; f < Math.max(1, a.frameCount); f++) {
      const pose: JointPose[] = []
      for (const l of levels) {
        if (l.kind !== 'joint') continue
        const b = bones[l.bone]!.index
        pose[b] = sampleJoint(m.module, a, bones[b]!, f)
      }
      frames.push(pose)
    }
    return frames
  })
}

/** Reads what the scene of a loaded model needs from its module (see the top). */
export function readStadiumSceneData(m: StadiumModel): StadiumSceneData {
  return { pixels: modelPixels(m), poses: animationPoses(m) }
}
