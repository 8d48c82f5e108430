/**
 * The canvases of the scene-view host, handed from a view that closes to the next that opens:
 * the canvas keeps its WebGL engine (viewport.ts keeps one per canvas), so switching views makes
 * no new GL context and recompiles no shader the previous view compiled. A canvas is in at most
 * one host at a time; the pool only grows to the number of hosts open at once.
 */
const free: HTMLCanvasElement[] = []
let made = 0

/** A canvas for a host: a free one, else a new one. */
export function takeCanvas(): HTMLCanvasElement {
  let c = free.pop()
  if (!c) {
    c = document.createElement('canvas')
    made++
  }
  c.className = 'scene-canvas'
  return c
}

/** Gives a host's canvas back (taken out of the page; its engine stays for the next host). */
export function giveCanvas(c: HTMLCanvasElement): void {
  c.remove()
  c.removeAttribute('data-testid')
  if (!free.includes(c)) free.push(c)
}

/** How many canvases the pool has made (warm.ts readies the first one only). */
export function canvasesMade(): number {
  return made
}
