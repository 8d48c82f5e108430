/**
 * The GLB container checked by hand against the glTF 2.0 specification, independent of both
 * writers: §4.4 "Binary glTF Layout" (12-byte header: magic 0x46546C67 "glTF", version 2, total
 * length; chunks of 4-byte-aligned length; the JSON chunk first, type 0x4E4F534A, padded with
 * spaces 0x20; an optional BIN chunk, type 0x004E4942, padded with zeros) and §3.6.2.4 "Data
 * Alignment" (an accessor's offset into its bufferView and into its buffer are multiples of its
 * component size; here every bufferView also starts on 4 bytes, as glTF-Transform writes them).
 * Returns the problems found, named by byte offset or JSON path; [] when the container is right.
 */
const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }

export function glbContainerProblems(glb: Uint8Array): string[] {
  const out: string[] = []
  if (glb.byteLength < 20) return [`file of ${glb.byteLength} bytes: shorter than the header and a chunk header`]
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength)
  if (dv.getUint32(0, true) !== 0x46546c67) out.push(`offset 0: magic 0x${dv.getUint32(0, true).toString(16)}, not 0x46546c67`)
  if (dv.getUint32(4, true) !== 2) out.push(`offset 4: version ${dv.getUint32(4, true)}, not 2`)
  if (dv.getUint32(8, true) !== glb.byteLength) out.push(`offset 8: total length ${dv.getUint32(8, true)}, file is ${glb.byteLength}`)
  const jl = dv.getUint32(12, true)
  if (jl % 4) out.push(`offset 12: JSON chunk length ${jl} is not a multiple of 4`)
  if (dv.getUint32(16, true) !== 0x4e4f534a) out.push(`offset 16: first chunk type 0x${dv.getUint32(16, true).toString(16)}, not JSON 0x4e4f534a`)
  if (20 + jl > glb.byteLength) return [...out, `offset 12: JSON chunk of ${jl} bytes runs past the end`]
  const chunk = glb.subarray(20, 20 + jl)
  let end = chunk.length
  while (end > 0 && chunk[end - 1] === 0x20) end--
  if (chunk[end - 1] !== 0x7d) out.push(`offset ${20 + end - 1}: JSON chunk padded with 0x${chunk[end - 1]?.toString(16)}, not spaces after the closing brace`)
  if (chunk.length - end > 3) out.push(`offset ${20 + end}: ${chunk.length - end} padding spaces (at most 3)`)
  let json: any // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = JSON.parse(new TextDecoder().decode(chunk))
  } catch (e) {
    return [...out, `offset 20: JSON chunk does not parse: ${(e as Error).message}`]
  }
  const binAt = 20 + jl
  let binLength = 0
  if (binAt < glb.byteLength) {
    binLength = dv.getUint32(binAt, true)
    if (binLength % 4) out.push(`offset ${binAt}: BIN chunk length ${binLength} is not a multiple of 4`)
    if (dv.getUint32(binAt + 4, true) !== 0x004e4942) out.push(`offset ${binAt + 4}: second chunk type 0x${dv.getUint32(binAt + 4, true).toString(16)}, not BIN 0x004e4942`)
    if (binAt + 8 + binLength !== glb.byteLength) out.push(`offset ${binAt}: BIN chunk of ${binLength} bytes does not end the file (${glb.byteLength - binAt - 8} bytes follow)`)
    const used = json.buffers?.[0]?.byteLength ?? 0
    if (used > binLength || binLength - used > 3) out.push(`buffers[0].byteLength ${used} vs BIN chunk of ${binLength} bytes (padding 0..3)`)
    for (let i = binAt + 8 + used; i < binAt + 8 + binLength && i < glb.byteLength; i++) if (glb[i] !== 0) out.push(`offset ${i}: BIN padding byte 0x${glb[i]!.toString(16)}, not 0`)
  } else if (json.buffers?.length) out.push('buffers listed, but the file has no BIN chunk')
  const views: { byteOffset?: number; byteLength: number; buffer: number }[] = json.bufferViews ?? []
  views.forEach((v, i) => {
    if ((v.byteOffset ?? 0) % 4) out.push(`bufferViews[${i}].byteOffset ${v.byteOffset} is not a multiple of 4`)
    if ((v.byteOffset ?? 0) + v.byteLength > (json.buffers?.[v.buffer]?.byteLength ?? 0)) out.push(`bufferViews[${i}] runs past buffers[${v.buffer}]`)
  })
  const accessors: { bufferView?: number; byteOffset?: number; componentType: number }[] = json.accessors ?? []
  accessors.forEach((a, i) => {
    if (a.bufferView === undefined) return
    const size = COMPONENT_SIZE[a.componentType] ?? 0
    const inView = a.byteOffset ?? 0
    const inBuffer = (views[a.bufferView]?.byteOffset ?? 0) + inView
    if (!size) out.push(`accessors[${i}].componentType ${a.componentType} is not a glTF component type`)
    else if (inView % size || inBuffer % size) out.push(`accessors[${i}]: offset ${inView} in its view, ${inBuffer} in its buffer, not multiples of ${size}`)
  })
  return out
}
