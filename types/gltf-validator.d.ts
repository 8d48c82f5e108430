/** Minimal types for the Khronos glTF-Validator npm build (only what our tests use). */
declare module 'gltf-validator' {
  export interface ValidationIssue {
    code: string
    message: string
    severity: number
    pointer?: string
    offset?: number
  }
  export interface ValidationReport {
    uri?: string
    mimeType?: string
    validatorVersion: string
    issues: {
      numErrors: number
      numWarnings: number
      numInfos: number
      numHints: number
      messages: ValidationIssue[]
      truncated: boolean
    }
    info?: Record<string, unknown>
  }
  export interface ValidationOptions {
    uri?: string
    format?: 'glb' | 'gltf'
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>
    writeTimestamp?: boolean
    maxIssues?: number
    ignoredIssues?: string[]
    onlyIssues?: string[]
    severityOverrides?: Record<string, number>
  }
  export function validateBytes(data: Uint8Array, options?: ValidationOptions): Promise<ValidationReport>
  export function validateString(json: string, options?: ValidationOptions): Promise<ValidationReport>
  export function version(): string
  export function supportedExtensions(): string[]
}
