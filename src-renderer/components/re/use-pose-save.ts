/**
 * The pose editor's Save As… (a game-loadable `.motlist.<version>`, never over the template) and
 * Export EMV JSON…, over the pose store. `mesh`: the character's mesh, whose bones a template
 * without bone headers is saved with (the saved motlist keeps the template's layout).
 */
import { defaultOutputPath } from '@shared/output-path'
import { bridge } from '../../bridge'
import type { usePoseStore } from './pose-store'

type Ask = (kind: 'open-file' | 'save-file', title: string, defaultPath: string) => Promise<string | null>

export interface PoseSaveDeps {
  sessions: ReturnType<typeof usePoseStore>
  run(label: string, fn: () => Promise<void>): Promise<void>
  ask: Ask
  mesh(): string | undefined
  status(text: string): void
  warnings(list: string[]): void
  /** Called once a saved motlist has joined the catalog. */
  saved(): void
}

const dirname = (p: string) => p.replace(/[\\/][^\\/]*$/, '') || p

export function usePoseSave(d: PoseSaveDeps) {
  const { sessions } = d
  function saveAs(): void {
    const s = sessions.active
    if (!s) return
    void d.run('Save', async () => {
      const folder = sessions.lastFolder() ?? (await bridge.invoke('re:lastFolder', {})).folder ?? dirname(s.template.path)
      // never the template itself (issue 14): beside it, numbered when the name would be the template's
      const name = `${s.poseName.replace(/[^\w.-]+/g, '_') || 'pose'}.motlist.${s.template.motlistVersion}`
      const suggestion = s.savedPath ?? defaultOutputPath({ beside: `${folder}/${name}`, name, inputFiles: [s.template.path] })
      const out = await d.ask('save-file', `Save pose as .motlist.${s.template.motlistVersion}`, suggestion)
      if (!out) return
      // the picker asked before replacing a file: its answer is the user's consent
      const mesh = d.mesh()
      const r = await bridge.invoke('re:savePose', { template: s.template.path, out, overwrite: true, ...(mesh ? { skeleton: mesh } : {}), pose: { name: s.poseName, ...sessions.changedBones() } })
      sessions.markSaved(r.path)
      sessions.rememberFolder(dirname(r.path))
      d.status(`Saved ${r.path} (motlist ${r.version}, ${r.posed} posed of ${r.boneCount} bones, ${r.size} bytes).`)
      d.warnings([...r.warnings, ...(r.unknownBones.length ? [`not in the skeleton: ${r.unknownBones.join(', ')}`] : [])])
      // The saved motlist joins the catalog so it can be reopened from the tree.
      void bridge.invoke('index:start', { paths: [r.path] }).then(() => d.saved(), () => {})
    })
  }

  function exportEmv(): void {
    const s = sessions.active
    if (!s) return
    void d.run('Export', async () => {
      const folder = sessions.lastFolder() ?? dirname(s.template.path)
      const out = await d.ask('save-file', 'Export pose as EMV Poser JSON', `${folder}/${s.poseName.replace(/[^\w.-]+/g, '_') || 'pose'}.json`)
      if (!out) return
      const sk = s.template.skeleton
      const r = await bridge.invoke('re:exportPose', { out, overwrite: true, order: sessions.order, poses: [{ name: s.poseName, bones: sk.names, rotations: s.history.current.slice() }] })
      d.status(`Exported ${r.path} (Euler order ${sessions.order}).`)
    })
  }
  return { saveAs, exportEmv }
}
