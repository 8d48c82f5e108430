/**
 * Catalog detectors for RE Engine motions and EMV Poser poses.
 * - `.motlist.*` / `.mot.*` by magic at +4 ('mlst' / 'mot '), version from the header (the name
 *   suffix is only a fallback hint) → source kind `re-motlist` / `re-mot`; assets: the file
 *   (`re-motlist` / `re-mot`) with one `re-motion` child per MotionIDs entry.
 * - `.mesh.*` (mesh-detector.ts) → `re-mesh`; motlists and meshes carry the character ID of the
 *   game's folder naming (`character` in the metadata and tags, src-shared/formats/re/character.ts).
 * - EMV Poser JSON (`{"Pose": {"Joint": {"_LocalEulerAngle": "vec:…"}}}`) → `emv-pose`, with one
 *   `emv-pose-entry` child per named pose.
 */
import * as path from 'node:path'
import type { AssetDraft, DetectInput, FileDetector, FolderDetector } from '../../plugin/detector'
import { readMotionFile, describeMotionFile, sniffMotionFile, versionFromName, parseEmvPoses, reCharacterId } from '../../../src-shared/formats/re'
import { reMeshDetector } from './mesh-detector'

const MOTION_NAME = /\.(motlist|mot)\.\d+$/i
const EMV_PROPERTY = /"_Local(EulerAngle|Position|Scale)"\s*:\s*"vec:/

export const reMotionDetector: FileDetector = {
  id: 're-motion',
  kind: 're-motlist',
  matchContent: (input) => sniffMotionFile(input.head) !== undefined && (MOTION_NAME.test(input.name) || input.head.byteLength >= 0x30),
  extensions: MOTION_NAME,
  enumerate(bytes, input) {
    const f = readMotionFile(bytes, input.path)
    const info = describeMotionFile(f)
    const kind = f.kind === 'motlist' ? 're-motlist' : 're-mot'
    const suffix = versionFromName(input.name)
    const base = path.basename(input.path)
    const skeleton = f.kind === 'motlist' ? f.motlist.skeleton : f.mot.bones
    // the character of the folder naming: its meshes carry the same ID (character.ts)
    const character = reCharacterId(input.path)
    const assets: AssetDraft[] = [
      {
        key: 'file',
        kind,
        name: info.name || base,
        locator: {},
        metadata: {
          version: info.version,
          ...(info.motVersion ? { motVersion: info.motVersion } : {}),
          motions: info.motions.length,
          bones: skeleton?.length ?? 0,
          ...(character ? { character } : {}),
          ...(info.warnings ? { warnings: info.warnings } : {}),
        },
        tags: ['re', 'motion', kind, `${f.kind} ${info.version}`, ...(character ? [character] : [])],
      },
    ]
    for (const m of info.motions) {
      assets.push({
        key: `motion#${m.index}`,
        parentKey: 'file',
        kind: 're-motion',
        name: m.name ? (m.id !== null ? `${m.id} ${m.name}` : m.name) : `${m.id ?? m.index} (no mot)`,
        locator: { motion: m.index },
        metadata: { id: m.id, frameCount: m.frameCount, frameRate: m.frameRate, bones: m.bones.length, tracks: m.tracks.length },
        tags: ['re', 'motion', ...(m.name ? [m.name] : [])],
      })
    }
    return {
      kind,
      assets,
      metadata: { format: f.kind, version: info.version, ...(suffix ? { nameVersion: suffix.version } : {}), name: info.name },
    }
  },
}

function headText(input: DetectInput): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(input.head.subarray(0, 16384))
}

export const emvPoseDetector: FileDetector = {
  id: 'emv-pose',
  kind: 'emv-pose',
  matchContent: (input) => input.name.endsWith('.json') && /^\s*\{/.test(headText(input)) && EMV_PROPERTY.test(headText(input)),
  enumerate(bytes, input) {
    const poses = parseEmvPoses(new TextDecoder('utf-8', { fatal: false }).decode(bytes), input.path)
    const assets: AssetDraft[] = [
      {
        key: 'file',
        kind: 'emv-pose',
        name: path.basename(input.path),
        locator: {},
        metadata: { poses: poses.length },
        tags: ['emv', 'pose', 'poser'],
      },
    ]
    poses.forEach((p, i) => {
      assets.push({
        key: `pose#${i}`,
        parentKey: 'file',
        kind: 'emv-pose-entry',
        name: p.name,
        locator: { pose: p.name, index: i },
        metadata: { joints: p.joints.length, rotations: p.joints.filter((j) => j.euler).length },
        tags: ['emv', 'pose'],
      })
    })
    return { kind: 'emv-pose', assets, metadata: { poses: poses.length } }
  },
}

export const reFileDetectors: FileDetector[] = [reMotionDetector, reMeshDetector, emvPoseDetector]
export const reFolderDetectors: FolderDetector[] = []
