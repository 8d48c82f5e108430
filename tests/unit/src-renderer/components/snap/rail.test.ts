import { describe, expect, it } from 'vitest'
import { buildSnapRom, defaultStage } from '../../../../fixtures/snap/build-rom'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { buildStageScene } from '../../../../../src-shared/formats/snap/stage-scene'
import { cartPose } from '../../../../../src-shared/formats/snap/main-track'
import { railAt, railCamera, railFromScene } from '../../../../../src-renderer/components/snap/rail'

describe('rail camera path', () => {
  const s = defaultStage(3, 0, 2)
  s.pathRooms[1]!.track!.duration = 150
  const st = parseStage(buildSnapRom({ stages: { beach: s } }).image, 'beach')
  const { scene } = buildStageScene(st)
  const rail = railFromScene(scene)!
  it('spans the blocks with their movement durations', () => {
    expect(rail.blocks).toEqual([300, 150, 300])
    expect(rail.total).toBe(750)
    expect(rail.pts.length).toBe(3 * 30 + 1)
  })
  it('follows the game-timed cart position (block start, middle of block 1, end)', () => {
    const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, 2))
    close(railAt(rail, 0).position, cartPose(st.track[0]!, 0).position)
    const mid = railAt(rail, 300 + 75)
    expect(mid.block).toBe(1)
    expect(mid.moveTime).toBeCloseTo(0.5, 10)
    close(mid.position, cartPose(st.track[1]!, 0.5).position)
    close(railAt(rail, 9999).position, cartPose(st.track[2]!, 1).position)
  })
  it('puts the eye above the rail looking forward along it', () => {
    const { eye, target } = railCamera(rail, 10)
    const p = railAt(rail, 10).position
    expect(eye[1]).toBeCloseTo(p[1] + 120, 6)
    // the track runs towards +Z
    expect(target[2]).toBeGreaterThan(eye[2])
  })
  it('is null for a scene without a track', () => {
    expect(railFromScene({ ...scene, curves: [] })).toBeNull()
    expect(railFromScene(null)).toBeNull()
  })
})
