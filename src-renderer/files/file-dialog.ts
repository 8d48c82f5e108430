import { shallowRef } from 'vue'
import type { ModbenchBridge } from '@shared/api'

/** What a view asks for: the bridge's `pick` options. */
export type PickOptions = Parameters<NonNullable<ModbenchBridge['pick']>>[0]

interface Request {
  opts: PickOptions
  resolve(path: string | null): void
}

/**
 * Browser mode's file dialog: one request at a time, shown by FileBrowser.vue (mounted once in
 * App.vue). The HTTP bridge's `pick` opens it; a second request while one is open cancels the
 * first (its promise resolves to null).
 */
export const fileDialog = shallowRef<Request | null>(null)

export function openFileDialog(opts: PickOptions): Promise<string | null> {
  fileDialog.value?.resolve(null)
  return new Promise((resolve) => {
    const req: Request = {
      opts,
      resolve: (p) => {
        if (fileDialog.value === req) fileDialog.value = null
        resolve(p)
      },
    }
    fileDialog.value = req
  })
}
