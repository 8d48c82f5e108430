// Types for murmurhash3js-revisited (the package ships none).
declare module 'murmurhash3js-revisited' {
  interface X86 {
    hash32(bytes: Uint8Array | number[], seed?: number): number
    hash128(bytes: Uint8Array | number[], seed?: number): string
  }
  const murmur: { x86: X86; x64: { hash128(bytes: Uint8Array | number[], seed?: number): string }; inputValidation: boolean }
  export default murmur
}
