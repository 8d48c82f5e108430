/**
 * The shell: the Vue app, mounted. Its own chunk, loaded by main.ts once a permalink's first
 * requests are out (early-open.ts).
 */
import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import './styles.css'
import { preloadViewport } from './preload'

/** Mounts the shell. `viewportAsked`: the page's first code asked for the viewport's code already. */
export function mountApp(viewportAsked: boolean): void {
  const app = createApp(App)
  app.use(createPinia())
  app.config.errorHandler = (err) => {
    // Never a blank screen: errors surface in the status bar's error banner.
    window.dispatchEvent(new CustomEvent('modbench:error', { detail: err instanceof Error ? err.message : String(err) }))
    console.error(err)
  }
  window.addEventListener('unhandledrejection', (ev) => {
    window.dispatchEvent(new CustomEvent('modbench:error', { detail: ev.reason instanceof Error ? ev.reason.message : String(ev.reason) }))
  })
  app.mount('#app')
  // (User Timing, read by `npm run bench views`: the shell is drawn)
  performance.mark('mb:shell-ready')
  // otherwise the viewport's code is loaded once the shell has painted and is idle
  if (!viewportAsked) preloadViewport(false)
}
