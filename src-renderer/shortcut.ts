/** Whether a key event is the shortcut written as "Ctrl+Shift+Z" (Ctrl is ⌘ on macOS too). */
export function matches(ev: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'code'>, shortcut: string): boolean {
  const parts = shortcut.split('+')
  const key = parts.pop()!.toLowerCase()
  const want = (m: string) => parts.includes(m)
  // Alt+Shift+C gives 'Ç' on some layouts: the physical key answers then
  const pressed = ev.key.toLowerCase() === key || ev.code === `Key${key.toUpperCase()}`
  return pressed && (ev.ctrlKey || ev.metaKey) === want('Ctrl') && ev.shiftKey === want('Shift') && ev.altKey === want('Alt')
}
