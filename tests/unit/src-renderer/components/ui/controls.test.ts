// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { createApp, defineComponent, h, nextTick, ref } from 'vue'
import MbButton from '../../../../../src-renderer/components/ui/MbButton.vue'
import MbToggle from '../../../../../src-renderer/components/ui/MbToggle.vue'
import MbSelect from '../../../../../src-renderer/components/ui/MbSelect.vue'
import MbSlider from '../../../../../src-renderer/components/ui/MbSlider.vue'
import MbToolbar from '../../../../../src-renderer/components/ui/MbToolbar.vue'
import MbPanelHeader from '../../../../../src-renderer/components/ui/MbPanelHeader.vue'
import { tipText } from '../../../../../src-renderer/components/ui/tip'

function mount(render: () => ReturnType<typeof h>): HTMLElement {
  const el = document.createElement('div')
  document.body.appendChild(el)
  createApp(defineComponent({ render })).mount(el)
  return el
}

describe('tipText', () => {
  it('appends the shortcut in brackets', () => {
    expect(tipText('Wireframe', 'W')).toBe('Wireframe (W)')
    expect(tipText(' Frame the rooms ')).toBe('Frame the rooms')
  })
})

describe('MbButton', () => {
  it('renders a themed button with the tip and shortcut as its tooltip, test id passed through', async () => {
    let clicks = 0
    const el = mount(() => h(MbButton, { tip: 'Frame the model', shortcut: 'F', 'data-testid': 'x-frame', onClick: () => clicks++ }, () => 'Frame'))
    const b = el.querySelector('button')!
    expect(b.className).toContain('mb-button')
    expect(b.getAttribute('title')).toBe('Frame the model (F)')
    expect(b.getAttribute('data-testid')).toBe('x-frame')
    expect(b.textContent).toBe('Frame')
    b.click()
    expect(clicks).toBe(1)
  })
  it('disabled: no click reaches the handler', () => {
    let clicks = 0
    const el = mount(() => h(MbButton, { tip: 'Save', disabled: true, onClick: () => clicks++ }, () => 'Save'))
    const b = el.querySelector('button')!
    expect(b.disabled).toBe(true)
    b.click()
    expect(clicks).toBe(0)
  })
  it('primary and on add their classes beside the caller\'s', () => {
    const el = mount(() => h(MbButton, { tip: 't', primary: true, on: true, class: 'mine' }, () => 'x'))
    expect(el.querySelector('button')!.className.split(' ').sort()).toEqual(['mb-button', 'mine', 'on', 'primary'])
  })
})

describe('MbToggle', () => {
  it('v-model both ways; the test id and tooltip sit where tests and users look', async () => {
    const on = ref(true)
    const el = mount(() => h(MbToggle, { tip: 'Wireframe', shortcut: 'W', 'data-testid': 'wire', modelValue: on.value, 'onUpdate:modelValue': (v: boolean) => (on.value = v) }, () => 'Wireframe'))
    const input = el.querySelector('input')!
    expect(input.getAttribute('data-testid')).toBe('wire')
    expect(el.querySelector('label')!.getAttribute('title')).toBe('Wireframe (W)')
    expect(input.checked).toBe(true)
    input.checked = false
    input.dispatchEvent(new Event('change'))
    expect(on.value).toBe(false)
    await nextTick()
    expect(input.checked).toBe(false)
    on.value = true
    await nextTick()
    expect(input.checked).toBe(true)
  })
  it(':checked + @change work as on a native checkbox; disabled greys it', () => {
    const seen: boolean[] = []
    const el = mount(() => h(MbToggle, { tip: 'Rail', checked: false, disabled: true, onChange: (e: Event) => seen.push((e.target as HTMLInputElement).checked) }))
    const input = el.querySelector('input')!
    expect(input.checked).toBe(false)
    expect(input.disabled).toBe(true)
    expect(el.querySelector('label')!.className).toContain('disabled')
    input.checked = true
    input.dispatchEvent(new Event('change'))
    expect(seen).toEqual([true])
  })
})

describe('MbSelect', () => {
  it('v-model gives the bound option value (numbers stay numbers)', async () => {
    const speed = ref<unknown>(4)
    const el = mount(() => h(MbSelect, { tip: 'Speed', 'data-testid': 'sp', modelValue: speed.value, 'onUpdate:modelValue': (v: unknown) => (speed.value = v) }, () => [1, 4, 8].map((s) => h('option', { value: s }, `${s}×`))))
    const sel = el.querySelector('select')!
    expect(sel.getAttribute('title')).toBe('Speed')
    expect(sel.className).toContain('mb-select')
    expect(sel.value).toBe('4')
    sel.selectedIndex = 2
    sel.dispatchEvent(new Event('change'))
    expect(speed.value).toBe(8)
  })
})

describe('MbSlider', () => {
  it('v-model as a number, min/max pass through', () => {
    const f = ref(3)
    const el = mount(() => h(MbSlider, { tip: 'Scrub', shortcut: 'Home / End', min: 0, max: 10, modelValue: f.value, 'onUpdate:modelValue': (v: number) => (f.value = v) }))
    const r = el.querySelector('input')!
    expect(r.type).toBe('range')
    expect(r.getAttribute('max')).toBe('10')
    expect(r.getAttribute('title')).toBe('Scrub (Home / End)')
    r.value = '7'
    r.dispatchEvent(new Event('input'))
    expect(f.value).toBe(7)
  })
})

describe('MbToolbar / MbPanelHeader', () => {
  it('render their slots', () => {
    const el = mount(() => h('div', [h(MbToolbar, { label: 'Stage' }, () => h('span', 'a')), h(MbPanelHeader, { title: 'Rooms' }, () => h('span', 'b'))]))
    expect(el.querySelector('.mb-toolbar')!.getAttribute('role')).toBe('toolbar')
    expect(el.querySelector('.mb-toolbar')!.textContent).toBe('a')
    expect(el.querySelector('.mb-panel-title')!.textContent).toBe('Rooms')
  })
})
