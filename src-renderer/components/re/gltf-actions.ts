/**
 * The pose editor's glTF and mod actions (Export .glb, Import glTF…, Save imported motion,
 * Save as mod…), as plain functions over the bridge so the editor only adds buttons. `ask` is the
 * editor's file prompt (open/save), which asks before replacing a file, so saves send `overwrite`;
 * every call returns what the editor shows in its status line.
 */
import type { ImportedGltf } from '@shared/api/re'
import { bridge } from '../../bridge'
import { defaultZipPath } from './mod-defaults'

export type Ask = (kind: 'open-file' | 'save-file', title: string, defaultPath: string) => Promise<string | null>

const stem = (p: string) => p.replace(/\.(motlist|mot)(\.\d+)?$/i, '')

/** Export .glb of a template (one motion or all), with the character's mesh when one is open. */
export async function exportGlb(ask: Ask, path: string, motion?: number, mesh?: string): Promise<string | null> {
  const out = await ask('save-file', 'Export motions as glTF binary (.glb)', `${stem(path)}${motion !== undefined ? `_${motion}` : ''}.glb`)
  if (!out) return null
  const r = await bridge.invoke('re:exportGlb', { path, out, motion, overwrite: true, ...(mesh ? { skeleton: mesh } : {}) })
  return `Exported ${r.path} (${r.animations.length} animation(s), ${r.bytes} bytes).`
}

/** Import glTF…: the preview (nothing saved yet) and the glTF path it came from. */
export async function importGltf(ask: Ask, template: string, animation?: string, mesh?: string): Promise<{ gltf: string; preview: ImportedGltf } | null> {
  const gltf = await ask('open-file', 'Import a glTF animation (.glb / .gltf)', template.replace(/[^\\/]*$/, ''))
  if (!gltf) return null
  return { gltf, preview: await bridge.invoke('re:importGltf', { template, gltf, animation, ...(mesh ? { skeleton: mesh } : {}) }) }
}

/** Saves a previewed import next to the template's version suffix. */
export async function saveImported(ask: Ask, template: string, gltf: string, preview: ImportedGltf, mesh?: string): Promise<{ path: string; status: string } | null> {
  const out = await ask('save-file', 'Save the imported motion', `${stem(gltf)}`)
  if (!out) return null
  const r = await bridge.invoke('re:importGltf', { template, gltf, animation: preview.animation, out, overwrite: true, ...(mesh ? { skeleton: mesh } : {}) })
  return { path: r.path!, status: `Saved ${r.path} (${r.frameCount} frames at ${r.frameRate} fps, ${r.tracks} tracks, largest key error ${r.maxError.toExponential(1)}).` }
}

export interface ModFields {
  gamePath: string
  name: string
  author: string
  version: string
  description: string
}

/**
 * Save as mod…: packs `file` (a saved motlist) at the game path as a Fluffy zip (default name:
 * the replaced game file's); `screenshot` gives the PNG of the current view, when wanted. The
 * game path is remembered per template, the author for the next mod.
 */
export async function saveAsMod(ask: Ask, file: string, template: string, f: ModFields, screenshot?: () => Promise<Uint8Array | undefined>): Promise<string | null> {
  const out = await ask('save-file', 'Save the Fluffy Mod Manager zip', defaultZipPath(f.gamePath, file))
  if (!out) return null
  const screenshotPng = screenshot ? await screenshot() : undefined
  const opt = (s: string) => (s.trim() ? s : undefined)
  const r = await bridge.invoke('re:packMod', { file, gamePath: f.gamePath, name: f.name, author: opt(f.author), version: opt(f.version), description: opt(f.description), screenshotPng, out, template, overwrite: true })
  return `Saved mod ${r.path} (${r.entries.join(', ')}). Install it with Fluffy Mod Manager: put the zip in its Games/<game>/Mods folder.`
}
