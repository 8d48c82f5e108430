/**
 * Service handlers of the RE glTF and mod channels (src-shared/api/re.ts): Export .glb,
 * Import glTF… (with a preview scene read back from the bytes that would be saved), and
 * Save as mod… with the game path remembered per template and the last author in the catalog's
 * settings.
 */
import * as path from 'node:path'
import type { Handlers } from '../../plugin/context'
import type { CatalogAccess as Catalog } from '../../plugin/context'
import { readMotionFile, motionFileScene } from '../../../src-shared/formats/re'
import { exportMotionGlb, buildGltfImport, writeGltfImport, packMod, inFile } from './gltf-files'
import { appConsent } from '../../node/output-guard'

const GAME_PATHS = 're.modGamePaths'
const AUTHOR = 're.modAuthor'
const MAX_REMEMBERED = 200

/** `natives/…/NAME` of a file that sits in a `natives` folder (the game file a mod of it replaces), else null. */
export function guessGamePath(file: string): string | null {
  const abs = path.resolve(file).split(path.sep).join('/')
  const m = /(?:^|\/)(natives\/.*)$/i.exec(abs)
  return m ? m[1]! : null
}

function remembered(catalog: Catalog): Record<string, string> {
  return catalog.getSetting<Record<string, string>>(GAME_PATHS) ?? {}
}

export const reGltfHandlers: Handlers = {
  're:exportGlb': async (req, ctx) => {
    const src = ctx.allowPath(req.path, 'read')
    const out = ctx.allowPath(req.out, 'write', { overwrite: req.overwrite })
    const r = await exportMotionGlb(src, out, req.motion, { skeleton: req.skeleton === undefined ? undefined : ctx.allowPath(req.skeleton, 'read') }, appConsent(req.overwrite))
    ctx.grantPath(r.path)
    return { path: r.path, bytes: r.bytes, animations: r.built.scene.animations.map((a) => a.name), warnings: r.warnings }
  },
  're:importGltf': async (req, ctx) => {
    const template = ctx.allowPath(req.template, 'read')
    const gltf = ctx.allowPath(req.gltf, 'read')
    const skeletonFile = req.skeleton === undefined ? undefined : ctx.allowPath(req.skeleton, 'read')
    const { result, animations, skeleton } = await buildGltfImport({ template, gltf, animation: req.animation, motNumber: req.motNumber, skeletonFile })
    // The preview is what the game would read: the saved bytes, read back (on the mesh's bones when they carry none).
    const built = inFile(gltf, () => motionFileScene(readMotionFile(result.bytes), { name: path.basename(template), skeleton }))
    const res = {
      scene: built.scene,
      animations,
      animation: result.animation,
      frameCount: result.frameCount,
      frameRate: result.frameRate,
      tracks: result.tracks.length,
      maxError: result.maxError,
      unmatchedNodes: result.unmatchedNodes,
      warnings: result.warnings,
    }
    if (req.out === undefined) return res
    const w = await writeGltfImport(result, { template, gltf, skeletonFile, out: ctx.allowPath(req.out, 'write', { overwrite: req.overwrite }) }, appConsent(req.overwrite))
    ctx.grantPath(w.path)
    return { ...res, path: w.path, size: w.size }
  },
  're:modGamePath': async (req, ctx) => {
    const t = path.resolve(req.template)
    return { gamePath: remembered(ctx.catalog)[t] ?? guessGamePath(t), author: ctx.catalog.getSetting<string>(AUTHOR) ?? null }
  },
  're:packMod': async (req, ctx) => {
    const file = ctx.allowPath(req.file, 'read')
    const screenshot = req.screenshot ? ctx.allowPath(req.screenshot, 'read') : undefined
    const out = ctx.allowPath(req.out, 'write', { overwrite: req.overwrite })
    const r = await packMod({ ...req, file, screenshot, screenshotPng: req.screenshotPng, out }, appConsent(req.overwrite))
    if (req.author?.trim()) ctx.catalog.setSetting(AUTHOR, req.author.trim())
    if (req.template) {
      const all = remembered(ctx.catalog)
      delete all[path.resolve(req.template)]
      all[path.resolve(req.template)] = req.gamePath
      const keys = Object.keys(all)
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED))) delete all[k]
      ctx.catalog.setSetting(GAME_PATHS, all)
    }
    ctx.grantPath(r.path)
    return r
  },
}
