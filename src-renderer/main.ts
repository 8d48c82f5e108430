/**
 * The page's first code (issue 26): a browser-mode permalink's requests go out now — the asset's
 * reveal and, once that answers, the view's code and first calls (early-open.ts), then the shell's
 * own chunk (app.ts: Vue components, stores) and the viewport's code —; then the shell mounts. Small on purpose: what it imports is all that loads before those requests.
 */
import { openEarly } from './early-open'
import { preloadViewport } from './preload'

const opens = openEarly()
const shell = import('./app')
if (opens) preloadViewport(true)
void shell.then((m) => m.mountApp(opens))
