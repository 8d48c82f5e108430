import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import * as path from 'node:path'

// The renderer alone (the same settings as electron.vite.config.ts's renderer section), for
// browser mode's on-demand build and `npm run build:renderer`.
const root = import.meta.dirname

export default defineConfig({
  root: path.join(root, 'src-renderer'),
  base: './',
  resolve: { alias: { '@shared': path.join(root, 'src-shared') } },
  plugins: [vue()],
  build: {
    outDir: path.join(root, 'out/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 8000,
    // (one chunk of Babylon's shared modules: see electron.vite.config.ts)
    rollupOptions: { output: { codeSplitting: { groups: [{ name: 'babylon-shared', test: /[\\/]node_modules[\\/]@babylonjs[\\/]/, minShareCount: 2, includeDependenciesRecursively: false }] } } },
  },
})
