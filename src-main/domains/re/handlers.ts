import * as path from 'node:path'
import { promises as fsp } from 'node:fs'
import type { Handlers } from '../../plugin/context'
import type { ReSkeleton, RePoseRotations } from '../../../src-shared/api/re'
import {
  describeMotionFile,
  motionsOf,
  motionFileScene,
  sampleMot,
  skeletonOf,
  quatCanonical,
  poseFromRotations,
  formatEmvPoses,
  motlistVersionForMot,
  type MotBone,
  type Quat,
  type Vec3,
} from '../../../src-shared/formats/re'
import { loadMotionFile, loadPoseFile, savePoseMotlist } from './files'
import { writeFileAtomic } from '../../node/atomic'
import { appConsent, guardOutput } from '../../node/output-guard'
import { skeletonArrays } from './skeleton-arrays'
import { editingBones } from './mesh-services'
import { loadSkeletonSource, motionSceneWithSkeletonFile } from './skeleton-files'

/** The folder Save As… starts in (last save, else last template). In memory for the session. */
let lastFolder: string | null = null

function poseMaps(p: RePoseRotations): { rotations: Map<string, Quat>; positions: Map<string, Vec3> } {
  if (p.rotations.length !== p.bones.length * 4) throw new Error(`pose "${p.name}": ${p.bones.length} bones but ${p.rotations.length / 4} rotations`)
  const rotations = new Map<string, Quat>()
  const positions = new Map<string, Vec3>()
  p.bones.forEach((b, i) => {
    rotations.set(b, Array.from(p.rotations.subarray(i * 4, i * 4 + 4)) as Quat)
    if (p.translations) positions.set(b, Array.from(p.translations.subarray(i * 3, i * 3 + 3)) as Vec3)
  })
  return { rotations, positions }
}

/** Handlers of the `re:*` channels of src-shared/api/re.ts. */
export const reHandlers: Handlers = {
  're:openTemplate': async (req, ctx) => {
    const p = ctx.allowPath(req.path, 'read')
    const f = await loadMotionFile(p)
    const info = describeMotionFile(f.file)
    const bones = skeletonOf(f.file) ?? []
    lastFolder ??= path.dirname(p)
    const motlistVersion = f.file.kind === 'motlist' ? f.file.motlist.version : (motlistVersionForMot(f.file.mot.version) ?? 0)
    return {
      path: req.path,
      kind: f.file.kind,
      version: info.version,
      motlistVersion,
      name: info.name,
      skeleton: skeletonArrays(bones),
      motions: info.motions.map((m) => ({ index: m.index, id: m.id, name: m.name, frameCount: m.frameCount, frameRate: m.frameRate, tracks: m.tracks.length })),
      warnings: f.warnings,
    }
  },
  're:sampleMotion': async (req, ctx) => {
    const file = ctx.allowPath(req.path, 'read')
    const f = await loadMotionFile(file)
    const bones = await editingBones(f.file, file, req.skeleton === undefined ? undefined : ctx.allowPath(req.skeleton, 'read'))
    const m = motionsOf(f.file)[req.motion]
    if (!m?.mot) throw new Error(`motion ${req.motion} does not exist or has no mot`)
    const s = sampleMot(m.mot, bones, req.frame)
    const rotations = new Float64Array(bones.length * 4)
    const translations = new Float64Array(bones.length * 3)
    const animated = new Uint8Array(bones.length)
    bones.forEach((b, i) => {
      rotations.set(quatCanonical(b.rotation), i * 4)
      translations.set(b.translation, i * 3)
    })
    for (const b of s) {
      if (b.boneIndex < 0) continue
      rotations.set(quatCanonical(b.rotation), b.boneIndex * 4)
      translations.set(b.translation, b.boneIndex * 3)
      animated[b.boneIndex] = 1
    }
    return { rotations, translations, animated }
  },
  're:motionScene': async (req, ctx) => {
    const file = ctx.allowPath(req.path, 'read')
    if (req.skeleton !== undefined) {
      // with the character's mesh skinned over the bones (re export --skeleton's scene)
      const { loaded, built } = await motionSceneWithSkeletonFile(file, ctx.allowPath(req.skeleton, 'read'), req.motion)
      const own = skeletonOf(loaded.file)
      const n = own && own.length ? own.length : built.boneNodes.length
      return { scene: built.scene, boneNodes: built.boneNodes.slice(0, n), warnings: [...loaded.warnings, ...built.warnings] }
    }
    const f = await loadMotionFile(file)
    const m = motionsOf(f.file)[req.motion]
    if (!m?.mot) throw new Error(`motion ${req.motion} does not exist or has no mot`)
    const built = motionFileScene(f.file, { motion: req.motion })
    return { scene: built.scene, boneNodes: [...built.boneNodes], warnings: [...f.warnings, ...built.warnings] }
  },
  're:openPose': async (req, ctx) => {
    const p = ctx.allowPath(req.path, 'read')
    return { path: req.path, poses: await loadPoseFile(p) }
  },
  're:savePose': async (req, ctx) => {
    const template = ctx.allowPath(req.template, 'read')
    const out = ctx.allowPath(req.out, 'write', { overwrite: req.overwrite })
    const skeleton = req.skeleton === undefined ? undefined : (await loadSkeletonSource(ctx.allowPath(req.skeleton, 'read'))).bones
    const res = await savePoseMotlist({
      templatePath: template,
      out,
      consent: appConsent(req.overwrite),
      bones: { name: req.pose.name, ...poseMaps(req.pose) },
      options: { motNumber: req.motNumber, frames: req.frames, usePositions: req.usePositions, skeleton },
      protect: req.skeleton === undefined ? [] : [req.skeleton],
    })
    ctx.grantPath(res.path)
    lastFolder = path.dirname(res.path)
    return { path: res.path, version: res.version, size: res.size, posed: res.posed.length, boneCount: res.boneCount, unknownBones: res.unknownBones, warnings: res.warnings }
  },
  're:exportPose': async (req, ctx) => {
    const out = ctx.allowPath(req.out.toLowerCase().endsWith('.json') ? req.out : `${req.out}.json`, 'write', { overwrite: req.overwrite })
    const poses = req.poses.map((p) => {
      const m = poseMaps(p)
      return poseFromRotations(p.name, m.rotations, req.order, p.translations ? m.positions : undefined)
    })
    guardOutput({ out, ...appConsent(req.overwrite) })
    await fsp.mkdir(path.dirname(out), { recursive: true })
    await writeFileAtomic(out, formatEmvPoses(poses))
    ctx.grantPath(out)
    lastFolder = path.dirname(out)
    return { path: out }
  },
  're:lastFolder': async () => ({ folder: lastFolder }),
}
