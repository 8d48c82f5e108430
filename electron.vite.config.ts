import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import * as path from 'node:path'

const root = import.meta.dirname
const alias = { '@shared': path.join(root, 'src-shared') }

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // the ETC1 and batch export workers are started from a file beside the built main (src-main/node/worker-script.ts)
        input: {
          index: path.join(root, 'src-main/index.ts'),
          'etc1-worker': path.join(root, 'src-main/domains/gf/etc1-worker.ts'),
          'export-worker': path.join(root, 'src-main/domains/gf/export-worker.ts'),
        },
        external: ['better-sqlite3', 'electron'],
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { preload: path.join(root, 'src-main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: path.join(root, 'src-renderer'),
    base: './',
    resolve: { alias },
    plugins: [vue()],
    build: {
      outDir: path.join(root, 'out/renderer'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 8000,
      // (electron-vite leaves the renderer unminified; minified, the viewport chunk is 1.2 MB, not
      // 2.8, and parses sooner: issue 26. vite.renderer.config.ts minifies by Vite's default.)
      minify: true,
      rollupOptions: {
        input: path.join(root, 'src-renderer/index.html'),
        // Babylon's modules shared by the viewport and its lazily loaded parts (shaders, loaders) in
        // one chunk, not 12 small ones: a permalink's page waits for the viewport's files over the
        // browser's 6 connections to the server (issue 26). Their own imports stay where they are
        // (recursively, Vite's preload helper would follow and the shell would load all of Babylon).
        output: { codeSplitting: { groups: [{ name: 'babylon-shared', test: /[\\/]node_modules[\\/]@babylonjs[\\/]/, minShareCount: 2, includeDependenciesRecursively: false }] } },
      },
    },
  },
})
