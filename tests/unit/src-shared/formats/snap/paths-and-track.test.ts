import { describe, expect, it } from 'vitest'
import { bsplineSegment, cardinalWeights, curvePoint, pathPosition, segmentPoint, uniformParam, type InterpData } from '../../../../../src-shared/formats/snap/interp-data'
import { blockToWorld } from '../../../../../src-shared/formats/snap/main-track'
import { channelSegments, channelValue, decodeCommandWord, payloadWords, type Track } from '../../../../../src-shared/formats/snap/anim-track'

type V = [number, number, number]
const close = (a: number[], b: number[], d = 5) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, d))

describe('paths (pokemon-snap.md §8, §14.3)', () => {
  const Q: V[] = [[0, 0, 0], [6, 0, 0], [12, 6, 0], [18, 0, 0]]
  it('uniform cubic B-spline: u = 0, 0.5, 1', () => {
    close(bsplineSegment(Q[0]!, Q[1]!, Q[2]!, Q[3]!, 0), [6, 1, 0])
    close(bsplineSegment(Q[0]!, Q[1]!, Q[2]!, Q[3]!, 0.5), [9, 2.875, 0])
    close(bsplineSegment(Q[0]!, Q[1]!, Q[2]!, Q[3]!, 1), [12, 4, 0])
  })
  it('tunnel_electrode_path1 first segment', () => {
    const T: V[] = [[25.758865, 0, 14.188783], [12.718971, 0, 4.98394], [-0.320922, 0, -4.220903], [-5.961793, 0, 0.841248]]
    close(bsplineSegment(T[0]!, T[1]!, T[2]!, T[3]!, 0), [12.718971, 0, 4.98394], 4)
    close(bsplineSegment(T[0]!, T[1]!, T[2]!, T[3]!, 1), [0.912248, 0, -1.843071], 4)
    const start = bsplineSegment(T[0]!, T[1]!, T[2]!, T[3]!, 0).map((x) => x * 100)
    close(start, [1271.8971, 0, 498.394], 2)
  })
  it('cardinal spline, tension 0.5', () => {
    const p = { type: 3, points: Q, tension: 0.5 }
    close(segmentPoint(p, 0, 0), [6, 0, 0])
    close(segmentPoint(p, 0, 1), [12, 6, 0])
    close(segmentPoint(p, 0, 0.5), [9, 3.375, 0])
    expect(cardinalWeights(0.3, 0.5).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10)
  })
  it('linear and Bézier endpoints, and g = 1 rules', () => {
    const lin = { type: 0, points: [[0, 0, 0], [10, 0, 0], [10, 10, 0]] as V[], tension: 0, numPoints: 3 }
    close(curvePoint(lin, 0.75), [10, 5, 0])
    close(curvePoint(lin, 1), [10, 10, 0])
    const bez = { type: 1, points: [[0, 0, 0], [1, 2, 0], [3, 2, 0], [4, 0, 0]] as V[], tension: 0, numPoints: 2 }
    close(curvePoint(bez, 0.5), [2, 1.5, 0])
    const bs = { type: 2, points: Q, tension: 0, numPoints: 2 }
    close(curvePoint(bs, 1), [12, 4, 0])
    const cr = { type: 3, points: Q, tension: 0.5, numPoints: 2 }
    close(curvePoint(cr, 1), [12, 6, 0])
  })
  it('arc-length reparameterisation: a straight segment with constant speed maps q linearly; NULL speedFunc falls back', () => {
    // B-spline with collinear equally spaced points: speed is constant (6) along u
    const path: InterpData = { addr: 0, type: 2, numPoints: 2, tension: 0, points: [[0, 0, 0], [6, 0, 0], [12, 0, 0], [18, 0, 0]], duration: 6, paramPoints: [0, 1], speedFunc: [[0, 0, 0, 0, 36]] }
    expect(uniformParam(path, 0.25)).toBeCloseTo(0.25, 4)
    close(pathPosition(path, 0.5), [9, 0, 0], 3)
    expect(uniformParam({ ...path, speedFunc: null }, 0.4)).toBeCloseTo(0.4, 10)
    expect(uniformParam(path, 1)).toBe(1)
  })
})

describe('main-track transform (§14.5)', () => {
  it('yaw 0 and yaw π/2', () => {
    close(blockToWorld([100, 5, 200], [4000, 0, 8000], 0), [4100, 5, 8200])
    close(blockToWorld([100, 5, 200], [4000, 0, 8000], Math.PI / 2), [4200, 5, 7900])
  })
})

describe('animation command words and channels (§7, §14.4)', () => {
  it('decodes 0x0A0A0005 as cmd 5, mask 0x014, duration 5 with a 16-byte payload', () => {
    const w = decodeCommandWord(0x0a0a0005)
    expect(w).toEqual({ cmd: 5, mask: 0x014, duration: 5 })
    expect(payloadWords(w.cmd, w.mask) * 4).toBe(16)
    expect(decodeCommandWord(0x1e000003)).toEqual({ cmd: 15, mask: 0, duration: 3 })
    expect(decodeCommandWord(0x1c100000)).toEqual({ cmd: 14, mask: 0x20, duration: 0 })
  })
  const track = (commands: Track['commands']): Track => ({ addr: 0, commands, length: 0 })
  it('Hermite: command 8 to 10 over 10 frames → 5 at τ = 5, 10 at τ = 10; with r0 = 1 → 6.25', () => {
    const segs = channelSegments(track([{ addr: 0, cmd: 8, mask: 1, duration: 10, values: [10], start: 0 }])).get(0)
    expect(channelValue(segs, 5, 0)).toBeCloseTo(5, 10)
    expect(channelValue(segs, 10, 0)).toBeCloseTo(10, 10)
    // an earlier command 5 with target 0 and rate 1 carries r1 = 1 into the next command's r0
    const segs2 = channelSegments(track([
      { addr: 0, cmd: 5, mask: 1, duration: 0, values: [0], rates: [1], start: 0 },
      { addr: 0, cmd: 8, mask: 1, duration: 10, values: [10], start: 0 },
    ])).get(0)
    expect(channelValue(segs2, 5, 0)).toBeCloseTo(6.25, 10)
  })
  it('step switches at the end of the duration; linear extrapolates', () => {
    const step = channelSegments(track([{ addr: 0, cmd: 10, mask: 1, duration: 4, values: [7], start: 0 }])).get(0)
    expect(channelValue(step, 3.9, 0)).toBe(0)
    expect(channelValue(step, 4, 0)).toBe(7)
    const lin = channelSegments(track([{ addr: 0, cmd: 4, mask: 1, duration: 10, values: [10], start: 0 }, { addr: 0, cmd: 2, mask: 0, duration: 20, values: [], start: 0 }])).get(0)
    expect(channelValue(lin, 15, 0)).toBeCloseTo(15, 10)
  })
})
