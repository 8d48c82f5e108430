/**
 * The few web-standard globals that `src-shared/` may use (tsconfig.shared.json has no DOM lib
 * and no Node types, so anything else — `window`, `Buffer`, `process`, `fetch` — is a compile
 * error there). Both browsers and Node provide these with exactly this shape; the declarations
 * are the subsets of lib.dom.d.ts that shared code needs. Only tsconfig.shared.json includes this
 * file: the other layers get the real declarations from DOM or @types/node.
 */

interface TextEncoder {
  readonly encoding: string
  encode(input?: string): Uint8Array
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder }

interface TextDecodeOptions { stream?: boolean }
interface TextDecoderOptions { fatal?: boolean; ignoreBOM?: boolean }
interface TextDecoder {
  readonly encoding: string
  readonly fatal: boolean
  readonly ignoreBOM: boolean
  decode(input?: ArrayBufferView | ArrayBuffer, options?: TextDecodeOptions): string
}
declare var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: TextDecoderOptions): TextDecoder }

interface Console {
  debug(...data: unknown[]): void
  error(...data: unknown[]): void
  info(...data: unknown[]): void
  log(...data: unknown[]): void
  warn(...data: unknown[]): void
}
declare var console: Console
