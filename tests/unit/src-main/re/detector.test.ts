import { describe, expect, it } from 'vitest'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { detectFile } from '../../../../src-main/indexer/registry'
import { reMotionDetector, emvPoseDetector } from '../../../../src-main/domains/re/detector'
import { buildTemplateMotlist, buildStandaloneMot } from '../../../fixtures/re/template'
import { twoPoseFile } from '../../../fixtures/re/poses'

const input = (name: string, bytes: Uint8Array) => ({ path: `/data/${name}`, name: name.toLowerCase(), size: bytes.byteLength, head: bytes.subarray(0, 65536) })

describe('RE detectors', () => {
  it('detects a motlist by magic and lists one re-motion per MotionIDs entry', async () => {
    const b = buildTemplateMotlist()
    const inp = input('cha1_wait.motlist.663', b)
    expect(detectFile(inp)).toBe(reMotionDetector)
    // by magic even with an unusual name
    expect(detectFile(input('renamed.bin', b))).toBe(reMotionDetector)
    const r = await reMotionDetector.enumerate(b, inp)
    expect(r.kind).toBe('re-motlist')
    expect(r.assets[0]).toMatchObject({ key: 'file', kind: 're-motlist', name: 'fixture_template', metadata: { version: 663, motVersion: 613, motions: 3, bones: 40 } })
    const motions = r.assets.filter((a) => a.kind === 're-motion')
    expect(motions.map((a) => a.name)).toEqual(['155 fixture_idle', '160 fixture_idle', '162 fixture_wave'])
    expect(motions.every((a) => a.parentKey === 'file')).toBe(true)
    expect(motions[2]!.locator).toEqual({ motion: 2 })
    expect(new Set(r.assets.map((a) => a.key)).size).toBe(r.assets.length)
  })

  it('refines standalone mots to re-mot', async () => {
    const b = buildStandaloneMot(613)
    const r = await reMotionDetector.enumerate(b, input('walk.mot.613', b))
    expect(r.kind).toBe('re-mot')
    expect(r.assets.map((a) => a.kind)).toEqual(['re-mot', 're-motion'])
  })

  it('throws a FormatError on a damaged motlist (the indexer records it)', () => {
    const b = buildTemplateMotlist().subarray(0, 500)
    expect(() => reMotionDetector.enumerate(b, input('bad.motlist.663', b))).toThrow(/bad\.motlist\.663/)
  })

  it('detects EMV pose JSON by content, one emv-pose-entry per pose', async () => {
    const bytes = new TextEncoder().encode(twoPoseFile())
    const inp = input('AppResident.Instance.Body.ch3a8z0_body.json', bytes)
    expect(detectFile(inp)).toBe(emvPoseDetector)
    const r = await emvPoseDetector.enumerate(bytes, inp)
    expect(r.kind).toBe('emv-pose')
    expect(r.assets.map((a) => [a.kind, a.name])).toEqual([
      ['emv-pose', 'AppResident.Instance.Body.ch3a8z0_body.json'],
      ['emv-pose-entry', 'ArmsDown'],
      ['emv-pose-entry', 'Sit'],
    ])
  })

  it('leaves other JSON alone', () => {
    const bytes = new TextEncoder().encode('{"name": "package", "version": "1.0.0"}')
    expect(emvPoseDetector.matchContent!(input('package.json', bytes))).toBe(false)
  })
})
