import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import './styles.css'
import { preloadViewport } from './preload'
import { parsePermalink } from './permalink'

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
// a permalink (browser mode) opens a view: its code is asked for now, not when the shell is idle
preloadViewport(parsePermalink(location.search).asset !== null)
