import { describe, expect, it } from 'vitest'
import { formatCoord, formatPermalink, parsePermalink } from '../../../src-renderer/permalink'

describe('permalink ?asset=ID&camera=x,y,z,tx,ty,tz', () => {
  it('parses an asset id, demo, and a six-number camera (eye then target)', () => {
    expect(parsePermalink('?asset=42&camera=1,2.5,-3,0,0.25,0')).toEqual({ asset: 42, camera: { eye: [1, 2.5, -3], target: [0, 0.25, 0] } })
    expect(parsePermalink('asset=demo')).toEqual({ asset: 'demo', camera: null })
    expect(parsePermalink('asset=material-card')).toEqual({ asset: 'material-card', camera: null })
  })

  it('drops bad values instead of guessing', () => {
    expect(parsePermalink('?asset=-1&camera=1,2,3')).toEqual({ asset: null, camera: null })
    expect(parsePermalink('?asset=4x&camera=1,2,3,4,5,NaN')).toEqual({ asset: null, camera: null })
    expect(parsePermalink('?camera=1,2,3,4,5,')).toEqual({ asset: null, camera: null })
    expect(parsePermalink('')).toEqual({ asset: null, camera: null })
  })

  it('formats 3 decimals at most, keeps other parameters, removes with null, keeps with undefined', () => {
    expect(formatCoord(1.23456)).toBe('1.235')
    expect(formatCoord(-0.0001)).toBe('0')
    expect(formatCoord(10)).toBe('10')
    const s = formatPermalink('?token=abc', { asset: 7, camera: { eye: [1.23456, 0, -2], target: [0, 0.5, 0] } })
    expect(s).toBe('?token=abc&asset=7&camera=1.235,0,-2,0,0.5,0')
    expect(formatPermalink(s, { camera: null })).toBe('?token=abc&asset=7')
    expect(formatPermalink(s, { asset: 9 })).toBe('?token=abc&asset=9&camera=1.235,0,-2,0,0.5,0')
    expect(formatPermalink('?asset=3', { asset: null })).toBe('')
  })

  it('round-trips what it writes', () => {
    const cam = { eye: [12.5, -3, 0.125] as [number, number, number], target: [1, 2, 3] as [number, number, number] }
    expect(parsePermalink(formatPermalink('', { asset: 'demo', camera: cam }))).toEqual({ asset: 'demo', camera: cam })
  })
})
