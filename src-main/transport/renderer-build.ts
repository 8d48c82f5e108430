import * as fs from 'node:fs'
import * as path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')

export function rendererDir(): string {
  return path.join(root, 'out', 'renderer')
}

/**
 * Browser mode serves the built renderer. Right after `npm ci` nothing is built yet, so the
 * first `modbench serve` builds it (once, ~20 s) with the same Vite config as electron-vite.
 */
export async function ensureRendererBuilt(log: (t: string) => void): Promise<void> {
  if (fs.existsSync(path.join(rendererDir(), 'index.html'))) return
  log('building the renderer for browser mode (first run only)…')
  const { build } = await import('vite')
  await build({ configFile: path.join(root, 'vite.renderer.config.ts'), logLevel: 'warn' })
}
