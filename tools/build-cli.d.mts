/** Types of tools/build-cli.mjs (for the tests and the bench). */
export const WORKERS: Record<string, string>
export interface Metafile {
  inputs: Record<string, { bytes: number; imports: { path: string; kind: string; external?: boolean }[] }>
  outputs: Record<string, { bytes: number; entryPoint?: string; imports: { path: string; kind: string; external?: boolean }[] }>
}
export function buildCli(options?: { outdir?: string; clean?: boolean }): Promise<Metafile>
