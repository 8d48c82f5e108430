/**
 * The request half of the API contract at run time: one schema per channel, proved at compile time
 * to be exactly `Req<C>` (`_exact` below fails to type-check when a contract type changes and its
 * schema does not). Both transports call `checkRequest` before a service sees a request.
 */
import type { Channel, ModbenchBridge, Req } from '../api'
import type { GfReplacementReq } from './gf'
import type { RePoseRotations } from './re'
import { BadRequest, bool, checkValue, either, f64s, index, list, lit, nullable, num, obj, opt, pathStr, str, text, bytes, type Infer, type Exact, type Schema } from './schema'

const set = pathStr
const jobId = str
const overwrite = opt(bool)
const lod = opt(lit('high', 'low'))
const replacement = { file: str, entry: index, png: opt(bytes), path: opt(pathStr) }
const replacementReq = obj(replacement)
const pose = obj({ name: str, bones: list(str), rotations: f64s, translations: opt(f64s) })
const none = obj({})
const assetId = either(index, lit('demo'))

const schemas = {
  'catalog:sources': none,
  'catalog:children': obj({ sourceId: index, parent: nullable(index), offset: opt(index), limit: opt(index), after: opt(index) }),
  'catalog:asset': obj({ id: index }),
  'catalog:reveal': obj({ id: index, limit: opt(index) }),
  'catalog:search': obj({ query: str, limit: opt(index) }),
  'catalog:removeSource': obj({ id: index }),
  'index:start': obj({ paths: list(pathStr, 100_000), jobId: opt(jobId) }),
  'index:cancel': obj({ jobId }),
  'index:samples': none,
  'fs:grant': obj({ path: pathStr }),
  'fs:list': obj({ path: opt(text), recent: opt(list(pathStr, 1000)) }),
  'fs:stat': obj({ path: pathStr }),
  'scene:open': obj({ id: assetId }),
  'scene:export': obj({ id: assetId, out: pathStr, overwrite, jobId: opt(jobId) }),
  'gf:textures': obj({ set }),
  'gf:texture': obj({ set, file: str, entry: index }),
  'gf:previewReplace': obj({ ...replacement, set, resize: opt(bool), jobId: opt(jobId) }),
  'gf:repack': obj({ set, out: pathStr, replacements: list(replacementReq, 100_000), resize: opt(bool), jobId: opt(jobId) }),
  'gf:matchFolder': obj({ set, folder: pathStr }),
  'gf:exportPng': obj({ set, file: str, entry: index, out: pathStr, overwrite }),
  'gf:exportAll': obj({ set, out: pathStr }),
  'gf:model': obj({ set, lod, replacements: opt(list(replacementReq, 100_000)) }),
  'gf:exportGlb': obj({ set, out: pathStr, lod, replacements: opt(list(replacementReq, 100_000)), overwrite }),
  'gf:writeMod': obj({
    archive: pathStr,
    sets: list(obj({ set: index, replacements: list(replacementReq, 100_000) }), 100_000),
    target: either(obj({ out: pathStr }), obj({ layeredfs: pathStr, title: str })),
    jobId,
    resize: opt(bool),
    overwrite,
  }),
  'gf:exportSets': obj({ dir: pathStr, out: pathStr, lod, jobId }),
  'gf:cancelJob': obj({ jobId }),
  're:openTemplate': obj({ path: pathStr }),
  're:sampleMotion': obj({ path: pathStr, motion: index, frame: num, skeleton: opt(pathStr) }),
  're:motionScene': obj({ path: pathStr, motion: index, skeleton: opt(pathStr) }),
  're:openPose': obj({ path: pathStr }),
  're:savePose': obj({ template: pathStr, out: pathStr, pose, motNumber: opt(index), frames: opt(index), usePositions: opt(bool), overwrite, skeleton: opt(pathStr) }),
  're:exportPose': obj({ out: pathStr, poses: list(pose, 100_000), order: opt(lit('XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX')), overwrite }),
  're:lastFolder': none,
  're:exportGlb': obj({ path: pathStr, out: pathStr, motion: opt(index), overwrite, skeleton: opt(pathStr) }),
  're:importGltf': obj({ template: pathStr, gltf: pathStr, animation: opt(str), motNumber: opt(index), out: opt(pathStr), overwrite, skeleton: opt(pathStr) }),
  're:findMesh': obj({ path: pathStr }),
  're:openMesh': obj({ template: pathStr, mesh: pathStr }),
  're:modGamePath': obj({ template: pathStr }),
  're:packMod': obj({
    file: pathStr,
    gamePath: str,
    name: str,
    version: opt(str),
    author: opt(str),
    description: opt(str),
    screenshot: opt(pathStr),
    screenshotPng: opt(bytes),
    out: pathStr,
    template: opt(pathStr),
    overwrite,
  }),
  'snap:stages': obj({ path: pathStr }),
  'snap:track': obj({ path: pathStr, stage: str, samples: opt(index) }),
  'stadium:model': obj({ id: index }),
  'stadium:export': obj({ id: index, out: pathStr }),
} satisfies { [C in Channel]: Schema<unknown> }

/** Compile-time proof: every channel's schema accepts exactly its contract type (each entry must be `true`). */
const _exact: { [C in Channel]: Exact<Infer<(typeof schemas)[C]>, Req<C>> } = {
  'catalog:sources': true, 'catalog:children': true, 'catalog:asset': true, 'catalog:reveal': true, 'catalog:search': true, 'catalog:removeSource': true,
  'index:start': true, 'index:cancel': true, 'index:samples': true, 'fs:grant': true, 'fs:list': true, 'fs:stat': true,
  'scene:open': true, 'scene:export': true,
  'gf:textures': true, 'gf:texture': true, 'gf:previewReplace': true, 'gf:repack': true, 'gf:matchFolder': true, 'gf:exportPng': true, 'gf:exportAll': true,
  'gf:model': true, 'gf:exportGlb': true, 'gf:writeMod': true, 'gf:exportSets': true, 'gf:cancelJob': true,
  're:openTemplate': true, 're:sampleMotion': true, 're:motionScene': true, 're:openPose': true, 're:savePose': true, 're:exportPose': true,
  're:lastFolder': true, 're:exportGlb': true, 're:importGltf': true, 're:findMesh': true, 're:openMesh': true, 're:modGamePath': true, 're:packMod': true,
  'snap:stages': true, 'snap:track': true, 'stadium:model': true, 'stadium:export': true,
}
const _nested: [Exact<Infer<typeof replacementReq>, GfReplacementReq>, Exact<Infer<typeof pose>, RePoseRotations>] = [true, true]
void _exact
void _nested

/** Whether `channel` is a channel of the contract. */
export function isChannel(channel: string): channel is Channel {
  return Object.prototype.hasOwnProperty.call(schemas, channel)
}

/** Returns `payload` typed as the channel's request, or throws `BadRequest` naming the first field that does not fit. */
export function checkRequest<C extends Channel>(channel: C, payload: unknown): Req<C> {
  const schema: Schema<unknown> | undefined = isChannel(channel) ? schemas[channel] : undefined
  if (!schema) throw new BadRequest(channel, '', `unknown channel ${channel}`)
  return checkValue(channel, schema, payload) as Req<C>
}

type PickOptions = Parameters<NonNullable<ModbenchBridge['pick']>>[0]
const pickOptions = obj({
  kind: lit('open-file', 'open-folder', 'save-file'),
  title: opt(str),
  defaultPath: opt(pathStr),
  filters: opt(list(obj({ name: str, extensions: list(str, 1000) }), 1000)),
})
const _pick: Exact<Infer<typeof pickOptions>, PickOptions> = true
void _pick

/** The Electron shell's own IPC channels besides `api:invoke` (the preload's `pick`, `reveal` and the paths of dropped files). */
export const shellSchemas = {
  'dialog:pick': pickOptions,
  'shell:reveal': pathStr,
  'files:dropped': list(pathStr, 100_000),
} as const

/** Bytes a request body may have: channels that carry images (PNG bytes) get more. */
export function requestBodyLimit(channel: string): number {
  return channel === 'gf:previewReplace' || channel === 'gf:repack' || channel === 'gf:model' ? 64 * 1024 * 1024 : 8 * 1024 * 1024
}
