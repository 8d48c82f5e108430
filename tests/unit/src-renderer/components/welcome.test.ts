// @vitest-environment happy-dom
/**
 * The welcome page's copy comes from the domain manifests: one line per game (its title, its
 * files, what it does) and the games named in the closing sentence; a domain registered at run
 * time adds its line and its name, and removing it takes them out again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import { registerSharedDomain, unregisterSharedDomain } from '../../../../src-shared/domains'
import { fakeDomain } from '../../../fixtures/domains/fake/shared'

vi.mock('../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  errorCode: () => undefined,
  bridge: { transport: 'http', on: () => () => {}, invoke: async () => [] },
}))

const { default: Welcome } = await import('../../../../src-renderer/components/Welcome.vue')

function mount() {
  document.body.innerHTML = '<div id="app"></div>'
  const pinia = createPinia()
  setActivePinia(pinia)
  const app = createApp({ render: () => h(Welcome) })
  app.use(pinia)
  app.mount('#app')
  return app
}
const text = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent?.replace(/\s+/g, ' ').trim())

describe('Welcome', () => {
  afterEach(() => unregisterSharedDomain(fakeDomain.id))

  it('lists each game of the manifests on its own line and names them in a sentence', () => {
    const app = mount()
    expect(text('[data-testid="welcome-games"] li').map((l) => l!.split(' (')[0])).toEqual(['Pokémon Snap', 'Pokémon Stadium', 'RE Engine motions', 'Pokémon Ultra Sun/Moon GF sets'])
    expect(text('[data-testid="welcome-game-snap"]')[0]).toMatch(/^Pokémon Snap \(N64 ROM\): stages/)
    expect(document.querySelector('[data-testid="welcome-game-n64"]')).toBeNull() // the platform has no line
    expect(text('.welcome p.small')[0]).toContain('Open your own files of Pokémon Snap, Pokémon Stadium, RE Engine motions and Pokémon Ultra Sun/Moon GF sets with File → Open…')
    app.unmount()
  })

  it('adds the line and the name of a domain registered at run time', () => {
    registerSharedDomain(fakeDomain)
    const app = mount()
    expect(text('[data-testid="welcome-game-fake"]')).toEqual(['Fake test format (.fake files): a test format with one mesh.'])
    expect(text('.welcome p.small')[0]).toContain('Pokémon Ultra Sun/Moon GF sets and Fake test format with File → Open…')
    app.unmount()
  })
})
