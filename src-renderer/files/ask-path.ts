import { bridge } from '../bridge'
import { openFileDialog, type PickOptions } from './file-dialog'

/**
 * Asks the user for a path: the native dialog in Electron, the file browser in browser mode
 * (both confirm before a save replaces a file, so a save-file answer may be written with
 * `overwrite: true`). Null when cancelled.
 */
export function askPath(opts: PickOptions): Promise<string | null> {
  return bridge.pick ? bridge.pick(opts) : openFileDialog(opts)
}
