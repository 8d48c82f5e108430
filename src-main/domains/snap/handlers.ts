/** Handlers of the `snap:*` channels of src-shared/api/snap.ts. */
import type { Handlers } from '../../plugin/context'
import { loadSnapRom } from './rom-file'
import { listStages, requireStage, stageTrack } from './stages'

export const snapHandlers: Handlers = {
  'snap:stages': async (req, ctx) => {
    const file = ctx.allowPath(req.path, 'read')
    const rom = await loadSnapRom(file)
    return { verified: rom.verified, md5: rom.md5, stages: listStages(rom, { lenient: true }) }
  },
  'snap:track': async (req, ctx) => {
    const file = ctx.allowPath(req.path, 'read')
    return stageTrack(await loadSnapRom(file), requireStage(req.stage), req.samples ?? 8)
  },
}
