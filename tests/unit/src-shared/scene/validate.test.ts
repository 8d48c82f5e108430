import { describe, expect, it } from 'vitest'
import { demoScene } from '../../../../src-shared/scene/demo'
import { SceneError, sceneProblems, validateScene } from '../../../../src-shared/scene/validate'
import { FormatError } from '../../../../src-shared/binary/errors'
import type { Scene } from '../../../../src-shared/scene/types'

/** Applies a mutation to a fresh demo scene and returns the validation error. */
function broken(mutate: (s: Scene) => void): SceneError {
  const s = demoScene()
  mutate(s)
  try {
    validateScene(s)
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError)
    expect(e).toBeInstanceOf(FormatError)
    return e as SceneError
  }
  throw new Error('the scene was accepted')
}

describe('validateScene', () => {
  it('accepts the demo scene', () => {
    expect(sceneProblems(demoScene())).toEqual([])
    expect(() => validateScene(demoScene())).not.toThrow()
  })

  /** The demo's skinned primitive with a second set: weights halved, the other half on joint 3 (influences 5–8). */
  const withSecondSet = (s: Scene) => {
    const p = s.meshes[0].primitives[0]
    const nv = p.positions.length / 3
    p.weights = p.weights!.map((w) => w / 2)
    p.joints1 = new Uint16Array(nv * 4).map((_, i) => (i % 4 === 0 ? 3 : 0))
    p.weights1 = new Float32Array(nv * 4).map((_, i) => (i % 4 === 0 ? 0.5 : 0))
    return p
  }

  it('accepts a second joints/weights set whose weights complete the first to 1', () => {
    const s = demoScene()
    withSecondSet(s)
    expect(sceneProblems(s)).toEqual([])
  })

  const cases: [string, (s: Scene) => void, string, RegExp][] = [
    ['joints1 without weights1', (s) => delete withSecondSet(s).weights1, 'meshes[0].primitives[0].joints1', /go together/],
    ['a second set without the first', (s) => { const p = withSecondSet(s); delete p.joints; delete p.weights }, 'meshes[0].primitives[0].joints1', /only beside joints and weights/],
    ['weights of both sets not summing to 1', (s) => (withSecondSet(s).weights1![0] = 0.25), 'meshes[0].primitives[0].weights + weights1', /vertex 0's weights sum to 0\.7500/],
    ['second-set joint out of range', (s) => (withSecondSet(s).joints1![4] = 4), 'meshes[0].primitives[0].joints1', /vertex 1 uses joint 4 but the skin has 4 joints/],
    ['second-set weights of the wrong length', (s) => (withSecondSet(s).weights1 = new Float32Array(8)), 'meshes[0].primitives[0].weights1', /.+/],
    ['parent after child', (s) => (s.nodes[3].parent = 5), 'nodes[3].parent', /comes after its child/],
    ['parent out of range', (s) => (s.nodes[3].parent = -2), 'nodes[3].parent', /out of range/],
    ['NaN translation', (s) => (s.nodes[2].translation[1] = NaN), 'nodes[2].translation', /not a finite number/],
    ['non-unit rotation', (s) => (s.nodes[2].rotation = [0, 0, 0, 2]), 'nodes[2].rotation', /length 2\.0000/],
    ['mesh index out of range', (s) => (s.nodes[7].mesh = 99), 'nodes[7].mesh', /mesh index 99 out of range/],
    ['skin without mesh', (s) => { s.nodes[2].skin = 0 }, 'nodes[2].skin', /must have a mesh/],
    ['joint node out of range', (s) => (s.skins[0].joints[1] = 42), 'skins[0].joints[1]', /node index 42/],
    ['duplicate joint', (s) => (s.skins[0].joints[1] = s.skins[0].joints[0]), 'skins[0].joints[1]', /listed twice/],
    ['short inverse binds', (s) => (s.skins[0].inverseBindMatrices = s.skins[0].inverseBindMatrices.slice(16)), 'skins[0].inverseBindMatrices', /expected 4/],
    ['non-affine inverse bind', (s) => (s.skins[0].inverseBindMatrices[15] = 2), 'skins[0].inverseBindMatrices[0]', /last row/],
    ['skeleton not an ancestor', (s) => (s.skins[0].skeleton = 7), 'skins[0].skeleton', /not an ancestor/],
    ['joint index beyond the skin', (s) => (s.meshes[0].primitives[0].joints![0] = 4), 'meshes[0].primitives[0].joints', /uses joint 4 but the skin has 4 joints/],
    ['weights not summing to 1', (s) => (s.meshes[0].primitives[0].weights![0] = 0.5), 'meshes[0].primitives[0].weights', /sum to 0\.5000/],
    ['joints without weights', (s) => delete s.meshes[0].primitives[0].weights, 'meshes[0].primitives[0].weights', /go together/],
    ['skinned mesh without joints', (s) => { delete s.meshes[0].primitives[0].weights; delete s.meshes[0].primitives[0].joints }, 'meshes[0].primitives[0]', /used with a skin/],
    ['normals of the wrong length', (s) => (s.meshes[1].primitives[0].normals = new Float32Array(3)), 'meshes[1].primitives[0].normals', /has 1 items, expected 24/],
    ['positions not whole vertices', (s) => (s.meshes[1].primitives[0].positions = new Float32Array(7)), 'meshes[1].primitives[0].positions', /multiple of 3/],
    ['index out of range', (s) => (s.meshes[1].primitives[0].indices[5] = 24), 'meshes[1].primitives[0].indices[5]', /vertex index 24 out of range \(24 vertices\)/],
    ['indices not triangles', (s) => (s.meshes[1].primitives[0].indices = new Uint32Array([0, 1])), 'meshes[1].primitives[0].indices', /multiple of 3/],
    ['material out of range', (s) => (s.meshes[1].primitives[0].material = 4), 'meshes[1].primitives[0].material', /material index 4/],
    ['texture out of range', (s) => (s.materials[0].texture = 4), 'materials[0].texture', /texture index 4/],
    ['texture bytes', (s) => (s.textures[0].rgba = new Uint8Array(10)), 'textures[0].rgba', /expected 64×64×4/],
    ['alpha mode', (s) => ((s.materials[0] as { alphaMode: string }).alphaMode = 'ADD'), 'materials[0].alphaMode', /unknown alpha mode/],
    ['key times not increasing', (s) => (s.animations[0].channels[0].times[2] = 0.2), 'animations[0].channels[0].times[2]', /must increase/],
    ['channel value count', (s) => (s.animations[0].channels[0].values = new Float32Array(4)), 'animations[0].channels[0].values', /expected 5 keys × 4 = 20/],
    ['cubic value count', (s) => (s.animations[1].channels[0].values = s.animations[1].channels[0].values.slice(4)), 'animations[1].channels[0].values', /× 12/],
    ['NaN key value', (s) => (s.animations[0].channels[1].values[3] = NaN), 'animations[0].channels[1].values[3]', /not a finite number/],
    ['duplicate channel target', (s) => s.animations[0].channels.push(s.animations[0].channels[0]), 'animations[0].channels[3]', /second channel for node 3 rotation/],
    ['channel node out of range', (s) => (s.animations[0].channels[0].node = 10), 'animations[0].channels[0].node', /node index 10 out of range/],
    ['texture swap index', (s) => (s.animations[0].textureSwaps![0].textures[1] = 9), 'animations[0].textureSwaps[0].textures[1]', /texture index 9/],
    ['visibility flags', (s) => (s.animations[1].visibility![0].visible = new Uint8Array(1)), 'animations[1].visibility[0].visible', /3 flags/],
    ['uv track values', (s) => (s.animations[1].uvTracks![0].values = new Float32Array(3)), 'animations[1].uvTracks[0].values', /2 keys × 4/],
    ['frame rate', (s) => (s.animations[0].frameRate = 0), 'animations[0].frameRate', /positive/],
    ['clip loop start past its end', (s) => (s.animations[0].loopStart = s.animations[0].duration + 1), 'animations[0].loopStart', /within \[0, duration\]/],
    ['swap counter start', (s) => Object.assign(s.animations[0].textureSwaps![0], { period: 1, start: -1 }), 'animations[0].textureSwaps[0].start', /non-negative/],
    ['swap counter frame rate', (s) => Object.assign(s.animations[0].textureSwaps![0], { period: 1, frameRate: 0 }), 'animations[0].textureSwaps[0].frameRate', /positive/],
    ['curve of one point', (s) => (s.curves[0].points = new Float32Array([1, 2, 3])), 'curves[0].points', /two points/],
    ['curve node', (s) => (s.curves[1].node = 77), 'curves[1].node', /node index 77/],
    // More NaN / range / skin cases named by the issue (independent review).
    ['NaN position', (s) => (s.meshes[1].primitives[0].positions[4] = NaN), 'meshes[1].primitives[0].positions', /element 4 is not a finite number \(NaN\)/],
    ['NaN uv', (s) => (s.meshes[0].primitives[0].uvs![7] = NaN), 'meshes[0].primitives[0].uvs', /element 7 is not a finite number/],
    ['NaN weight', (s) => (s.meshes[0].primitives[0].weights![1] = NaN), 'meshes[0].primitives[0].weights', /element 1 is not a finite number/],
    ['infinite scale', (s) => (s.nodes[3].scale[2] = Infinity), 'nodes[3].scale', /component 2 is not a finite number \(Infinity\)/],
    ['NaN rotation', (s) => (s.nodes[9].rotation[0] = NaN), 'nodes[9].rotation', /component 0 is not a finite number/],
    ['NaN inverse bind', (s) => (s.skins[0].inverseBindMatrices[12] = NaN), 'skins[0].inverseBindMatrices', /element 12 is not a finite number/],
    ['NaN key time', (s) => (s.animations[2].channels[0].times[1] = NaN), 'animations[2].channels[0].times[1]', /key time NaN is not a finite number/],
    ['negative key time', (s) => (s.animations[2].channels[0].times[0] = -1), 'animations[2].channels[0].times[0]', /key time -1/],
    ['NaN curve point', (s) => (s.curves[0].points[5] = NaN), 'curves[0].points', /element 5 is not a finite number/],
    ['NaN base colour', (s) => (s.materials[1].baseColor[3] = NaN), 'materials[1].baseColor', /component 3 is not a finite number/],
    ['base colour above 1', (s) => (s.materials[1].baseColor[0] = 2), 'materials[1].baseColor', /within 0\.\.1/],
    ['NaN alpha cutoff', (s) => (s.materials[2].alphaCutoff = NaN), 'materials[2].alphaCutoff', /must be a number/],
    ['NaN colour-track value', (s) => (s.animations[0].colorTracks![0].values[2] = NaN), 'animations[0].colorTracks[0].values[2]', /not a finite number/],
    ['negative weight', (s) => s.meshes[0].primitives[0].weights!.set([1.5, -0.5], 0), 'meshes[0].primitives[0].weights', /negative weight -0\.5/],
    ['skin index out of range', (s) => (s.nodes[1].skin = 3), 'nodes[1].skin', /skin index 3 out of range \(0\.\.0, 1 skin\)/],
    ['skin with no joints', (s) => ((s.skins[0].joints = []), (s.skins[0].inverseBindMatrices = new Float32Array(0))), 'skins[0].joints', /at least one joint/],
    ['skinned mesh used without its skin', (s) => delete s.nodes[1].skin, 'meshes[0].primitives[0].joints', /has joints but a node uses it without a skin/],
    ['joint count shorter than the mesh needs', (s) => ((s.skins[0].joints = [2, 3]), (s.skins[0].inverseBindMatrices = s.skins[0].inverseBindMatrices.slice(0, 32)), (s.skins[0].skeleton = 2)), 'meshes[0].primitives[0].joints', /the skin has 2 joints/],
    ['positions as a plain list', (s) => ((s.meshes[1].primitives[0] as { positions: unknown }).positions = [0, 0, 0]), 'meshes[1].primitives[0].positions', /must be a Float32Array, got Array/],
    ['lines index out of range', (s) => Object.assign(s.meshes[1].primitives[0], { mode: 'lines', indices: new Uint32Array([0, 24]) }), 'meshes[1].primitives[0].indices[1]', /vertex index 24 out of range/],
    ['texture-swap material out of range', (s) => (s.animations[0].textureSwaps![0].material = 4), 'animations[0].textureSwaps[0].material', /material index 4 out of range/],
    ['visibility node out of range', (s) => (s.animations[1].visibility![0].node = -1), 'animations[1].visibility[0].node', /node index -1 out of range/],
    ['texture of size 0', (s) => (s.textures[3].width = 0), 'textures[3]', /bad size 0×16/],
  ]
  for (const [what, mutate, path, message] of cases) {
    it(`rejects: ${what}`, () => {
      const e = broken(mutate)
      expect(e.problems.map((p) => p.path)).toContain(path)
      const p = e.problems.find((x) => x.path === path)!
      expect(p.message).toMatch(message)
    })
  }

  it('names the scene and the first problem in the message, and counts the others', () => {
    const e = broken((s) => {
      s.nodes[2].translation[0] = Infinity
      s.materials[0].texture = 99
    })
    expect(e.message).toMatch(/^scene 'Demo scene': nodes\[2\]\.translation: component 0 is not a finite number/)
    expect(e.message).toMatch(/and 1 more problem: materials\[0\]\.texture/)
    expect(e.structure).toBe('nodes[2].translation')
  })

  it('something that is not a scene gets a message, not a crash', () => {
    expect(sceneProblems(null as unknown as Scene)).toEqual([{ path: 'scene', message: 'not a scene object (got null)' }])
    expect(() => validateScene(undefined as unknown as Scene)).toThrow(/not a scene object \(got undefined\)/)
    expect(sceneProblems({ name: 'x' } as unknown as Scene).map((p) => p.path)).toEqual(['nodes', 'meshes', 'materials', 'textures', 'skins', 'animations', 'curves'])
  })

  it('stops at the limit instead of listing millions of problems', () => {
    const s = demoScene()
    s.meshes[0].primitives[0].positions.fill(NaN)
    for (const n of s.nodes) n.translation = [NaN, NaN, NaN]
    expect(sceneProblems(s, 5)).toHaveLength(5)
  })
})
