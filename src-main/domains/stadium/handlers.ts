/** Handlers of the `stadium:*` channels of src-shared/api/stadium.ts. */
import type { Handlers, ServiceContext } from '../../plugin/context'
import type { StadiumModelInfo } from '../../../src-shared/api/stadium'
import { loadModel } from '../../../src-shared/formats/stadium/model'
import { MOVE_COUNT, moveName } from '../../../src-shared/formats/stadium/names'
import { exportStadium, readStadiumRom } from './rom-file'
import { NEW_FOLDER } from '../../node/output-guard'
import { fileOf, romOf } from './rom-cache'

async function modelInfo(id: number, ctx: ServiceContext): Promise<StadiumModelInfo> {
  const asset = ctx.catalog.asset(id)
  if (!asset || (asset.kind !== 'stadium-model' && asset.kind !== 'stadium-animation')) throw new Error(`asset ${id} is not a Stadium model`)
  const source = ctx.catalog.source(asset.sourceId)
  if (!source) throw new Error(`asset ${id}: its source is missing from the catalog`)
  const sr = await romOf(source, () => readStadiumRom(source.path))
  const m = loadModel(sr, fileOf(asset), { geometry: false })
  const modelAsset = asset.kind === 'stadium-animation' && asset.parent ? ctx.catalog.asset(asset.parent) ?? asset : asset
  const siblings = modelAsset.parent ? ctx.catalog.children(source.id, modelAsset.parent, 0, 1000).filter((a) => a.kind === 'stadium-model').map((a) => ({ id: a.id, name: a.name })) : [{ id: modelAsset.id, name: modelAsset.name }]
  const moves = []
  for (let mv = 1; mv <= MOVE_COUNT; mv++) {
    const e = m.battle?.entries[mv - 1]
    const anim = e && e.anim < m.animations.length ? e.anim : -1
    moves.push({ id: mv, name: moveName(mv), animation: anim, animationName: anim >= 0 ? m.labels.labels[anim]!.name : '', differsFromDefault: anim >= 0 && anim !== m.labels.defaultAnim, playStartFrame: e?.playStartFrame ?? 0, aux: e?.aux ?? -1 })
  }
  return {
    assetId: modelAsset.id,
    file: m.file,
    name: m.name,
    slug: m.slug,
    species: m.file < 151 ? m.file + 1 : m.species,
    bones: m.graph.bones.length,
    animations: m.animations.map((a, i) => {
      const l = m.labels.labels[i]!
      return { index: i, name: l.name, frames: a.frameCount, startFrame: a.startFrame, loopStartFrame: a.loopStartFrame, endBehavior: a.hold ? 'clamp' : 'wrap', hermite: a.hermite, pairedTextureAnimation: l.pairedTextureAnimation, contexts: l.contexts, moves: l.moves }
    }),
    textureAnimations: m.textureAnimations.map((t) => ({ index: t.index, frames: t.frameCount, startFrame: t.startFrame, loopStartFrame: t.loopStartFrame, hold: t.hold })),
    moves,
    attachPoints: m.graph.attachPoints.map((a) => ({ id: a.id, bone: a.bone >= 0 ? m.graph.bones[a.bone]!.name : null })),
    siblings,
    warnings: m.warnings,
  }
}

/** Handlers of the `stadium:*` channels of src-shared/api/stadium.ts. */
export const stadiumHandlers: Handlers = {
  'stadium:model': (req, ctx) => modelInfo(req.id, ctx),
  'stadium:export': async (req, ctx) => {
    const asset = ctx.catalog.asset(req.id)
    if (!asset) throw new Error(`no asset ${req.id}`)
    const source = ctx.catalog.source(asset.sourceId)
    if (!source) throw new Error(`asset ${req.id}: its source is missing`)
    const out = ctx.allowPath(req.out, 'write')
    const sr = await readStadiumRom(ctx.allowPath(source.path, 'read'))
    const res = await exportStadium(sr, out, { consent: NEW_FOLDER })
    return { out, models: res.models, files: res.files.length, failed: res.failed }
  },
}
