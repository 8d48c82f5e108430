/// <reference types="vite/client" />
declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}

interface Window {
  /** Set by the Electron preload; absent in browser mode. */
  modbench?: import('@shared/api').ModbenchBridge
  modbenchFiles?: { pathOf(f: File): string }
}
