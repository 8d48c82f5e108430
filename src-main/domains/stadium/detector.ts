import type { AssetDraft } from '../../plugin/detector'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import { openStadiumRom, loadModel } from '../../../src-shared/formats/stadium/model'
import { readModelArchive, EXPECTED_ARCHIVE_ID, MODEL_ARCHIVE_ROM } from '../../../src-shared/formats/stadium/archive'
import { speciesId } from '../../../src-shared/formats/stadium/names'

/**
 * Cheap enumeration of a Pokémon Stadium ROM for the catalog (called by the N64 detector once the
 * ROM is identified): game → models (the 151 named species first, then the other models) →
 * animations. Each model is decompressed and its geo layout walked (no display lists). A model
 * that cannot be read is listed with its error and no children, so one bad file does not hide
 * the rest.
 */
export function enumerateStadiumRom(rom: N64Rom): AssetDraft[] {
  const sr = openStadiumRom(rom.image, rom.file, rom.md5)
  const drafts: AssetDraft[] = [
    {
      key: 'game',
      kind: 'stadium-game',
      name: `Pokémon Stadium${sr.verified ? '' : ' (unverified image)'}`,
      locator: { archive: sr.archive.romOffset },
      metadata: { models: sr.archive.entries.length, archiveId: sr.archive.id, linkBase: sr.archive.linkBase, verified: sr.verified, warnings: sr.warnings },
      tags: ['stadium', 'pokemon stadium', 'n64'],
    },
  ]
  for (const e of sr.archive.entries) {
    const key = `model:${e.index}`
    try {
      const m = loadModel(sr, e.index, { geometry: false })
      const id = e.index < 151 ? speciesId(e.index + 1) : null
      drafts.push({
        key,
        parentKey: 'game',
        kind: 'stadium-model',
        name: e.index < 151 ? `${String(e.index + 1).padStart(3, '0')} ${m.name}` : `${m.slug} (${m.name})`,
        locator: { file: e.index, romOffset: e.romOffset, size: e.size },
        metadata: { file: e.index, species: e.index < 151 ? e.index + 1 : m.species, slug: m.slug, group: e.index < 151 ? 'pokemon' : 'extra', bones: m.graph.bones.length, animations: m.animations.length, textureAnimations: m.textureAnimations.length, textures: m.tables.textures.length, warnings: m.warnings.slice(0, 20) },
        tags: [m.slug, m.name, ...(id ? [id] : []), 'stadium-model'],
      })
      m.animations.forEach((a, k) => {
        const l = m.labels.labels[k]!
        drafts.push({
          key: `anim:${e.index}:${k}`,
          parentKey: key,
          kind: 'stadium-animation',
          name: `${String(k).padStart(2, '0')} ${l.name}`,
          locator: { file: e.index, animation: k },
          metadata: { frames: a.frameCount, startFrame: a.startFrame, loopStartFrame: a.loopStartFrame, hermite: a.hermite, endBehavior: a.hold ? 'clamp' : 'wrap', moves: l.moves, contexts: l.contexts, pairedTextureAnimation: l.pairedTextureAnimation },
          tags: [l.name, ...l.contexts, ...l.moves.slice(0, 40)],
        })
      })
    } catch (err) {
      drafts.push({ key, parentKey: 'game', kind: 'stadium-model', name: `file ${e.index} (unreadable)`, locator: { file: e.index, romOffset: e.romOffset, size: e.size }, metadata: { error: (err as Error).message } })
    }
  }
  return drafts
}

/**
 * True when a normalised N64 image whose header does not name Pokémon Stadium still has the
 * Stadium model archive at 0x920000 (id 0xEF, records inside the image). §2 identifies the game
 * by MD5 only and says to warn but still load other images, so the N64 detector can use this to
 * open such images (hacks, synthetic test images) with the Stadium layout.
 */
export function looksLikeStadiumImage(image: Uint8Array): boolean {
  // Too short for the archive header: false without building the error readModelArchive throws.
  if (image.length < MODEL_ARCHIVE_ROM + 0x10) return false
  try {
    return readModelArchive(image).id === EXPECTED_ARCHIVE_ID
  } catch {
    return false
  }
}
