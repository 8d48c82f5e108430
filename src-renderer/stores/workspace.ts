import { defineStore } from 'pinia'
import { ref } from 'vue'

/** What the centre pane shows besides the tree selection (the demo scene), and recent files. */
export const useWorkspaceStore = defineStore('workspace', () => {
  const demo = ref(false)
  /** Which built-in scene the demo shows: the demo scene or the material test card. */
  const demoKind = ref<'scene' | 'materials'>('scene')
  const recent = ref<string[]>(JSON.parse(localStorage.getItem('modbench-recent') ?? '[]') as string[])
  /** Whether the inspector column shows (hidden by default on narrow windows; remembered). */
  const savedInspector = localStorage.getItem('modbench-inspector')
  const inspector = ref(savedInspector === null ? (typeof window === 'undefined' || window.innerWidth >= 1200) : savedInspector === '1')
  function toggleInspector(): void {
    inspector.value = !inspector.value
    localStorage.setItem('modbench-inspector', inspector.value ? '1' : '0')
  }

  /** Whether the tree column (search and tree) shows (View → Tree, Ctrl+B; remembered). */
  const tree = ref(localStorage.getItem('modbench-tree-panel') !== '0')
  function toggleTree(): void {
    tree.value = !tree.value
    localStorage.setItem('modbench-tree-panel', tree.value ? '1' : '0')
  }

  function showDemo(kind: 'scene' | 'materials' = 'scene'): void {
    demoKind.value = kind
    demo.value = true
  }
  function leaveDemo(): void {
    demo.value = false
  }
  function addRecent(p: string): void {
    recent.value = [p, ...recent.value.filter((x) => x !== p)].slice(0, 10)
    localStorage.setItem('modbench-recent', JSON.stringify(recent.value))
  }
  return { demo, demoKind, recent, inspector, tree, showDemo, leaveDemo, addRecent, toggleInspector, toggleTree }
})
