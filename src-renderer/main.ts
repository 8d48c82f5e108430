/**
 * The page's first code (issue 26). On a browser-mode permalink the asset's reveal goes out now
 * (early-open.ts), then the shell's own chunk (app.ts: Vue components, stores) is asked for; once
 * the reveal answered and the view's code and first calls are out, the viewport's code. The shell
 * mounts when its chunk is there. What this file imports is all that loads before the reveal.
 */
import { openEarly } from './early-open'
import { preloadViewport } from './preload'

const opens = openEarly()
const shell = import('./app')
void opens?.then(() => preloadViewport(true))
void shell.then((m) => m.mountApp(opens !== null))
