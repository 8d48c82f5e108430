/**
 * Tooltip text of the themed controls: the tip, then the shortcut in brackets ("Wireframe (W)").
 * One place so every view words its tooltips the same way.
 */
export function tipText(tip: string, shortcut?: string): string {
  const t = tip.trim()
  return shortcut ? `${t} (${shortcut})` : t
}

/** The attributes a wrapper passes to its inner control: all but class and style (kept on the wrapper). */
export function innerAttrs(attrs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(attrs)) if (k !== 'class' && k !== 'style') out[k] = v
  return out
}

/** The value of the chosen option: Vue keeps a bound non-string `:value` on `_value` (as v-model does). */
export function optionValue(select: HTMLSelectElement): unknown {
  const opt = select.options[select.selectedIndex] as (HTMLOptionElement & { _value?: unknown }) | undefined
  if (!opt) return select.value
  return '_value' in opt ? opt._value : opt.value
}
