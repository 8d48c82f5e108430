/**
 * A sparse read of a Stadium ROM file: the image's full length is allocated (untouched pages cost
 * no memory) and only the ranges the Stadium readers use (`prefetchStadium`: header, battle
 * tables, the model archive's files; ~13 MiB of a 32 MiB US image at most) are read into it. The
 * MD5 is streamed over the whole file in 1 MiB pieces, each put in big-endian order first (the
 * MD5 is of the normalised image, as `openRom` computes it). So an export's memory does not hold
 * the 20 MiB of the image it never reads (issue 15 item 5; docs/DECISIONS.md "Stadium export memory").
 */
import { createHash } from 'node:crypto'
import { promises as fsp, readSync } from 'node:fs'
import { detectByteOrder, type ByteOrder } from '../../../src-shared/formats/n64/rom'
import { openStadiumRom, type StadiumRom } from '../../../src-shared/formats/stadium/model'
import { n64Identities } from '../../plugin/registry'
import { prefetchStadium } from '../../../src-shared/formats/stadium/prefetch'
import { isGzip } from '../../node/game-file'

const PIECE = 1 << 20

/** Puts `b` (a whole number of words of the file's order) into big-endian order, in place. */
function toBigEndian(b: Uint8Array, order: ByteOrder): void {
  if (order === 'v64') {
    for (let i = 0; i + 1 < b.length; i += 2) {
      const t = b[i]!
      b[i] = b[i + 1]!
      b[i + 1] = t
    }
  } else if (order === 'n64') {
    for (let i = 0; i + 3 < b.length; i += 4) {
      const t0 = b[i]!
      const t1 = b[i + 1]!
      b[i] = b[i + 3]!
      b[i + 1] = b[i + 2]!
      b[i + 2] = t1
      b[i + 3] = t0
    }
  }
}

/**
 * Opens a plain (not gzip) ROM file of `size` bytes sparsely, or returns null when it is not a
 * file this path handles (gzip, no N64 byte order, a length the byte order cannot have): the
 * caller then reads it whole, and the whole-file readers give their usual errors.
 */
export async function openStadiumSparse(file: string, size: number): Promise<StadiumRom | null> {
  const fh = await fsp.open(file, 'r')
  try {
    const head = new Uint8Array(4)
    await fh.read(head, 0, 4, 0)
    const order = detectByteOrder(head)
    if (isGzip(head) || !order || (order === 'v64' && size % 2) || (order === 'n64' && size % 4)) return null
    const md5 = createHash('md5')
    const piece = new Uint8Array(PIECE)
    for (let at = 0; at < size; ) {
      const { bytesRead } = await fh.read(piece, 0, Math.min(PIECE, size - at), at)
      if (bytesRead === 0) throw new Error(`the file ended at ${at} of ${size} bytes while reading it (changed while open?)`)
      const got = piece.subarray(0, bytesRead)
      toBigEndian(got, order)
      md5.update(got)
      at += bytesRead
    }
    const image = new Uint8Array(size)
    const filled: [number, number][] = []
    prefetchStadium(image, (offset, length) => {
      // whole words of the file's byte order, so each range can be swapped on its own
      const start = offset & ~3
      const end = Math.min(size, (offset + length + 3) & ~3)
      if (filled.some(([s, e]) => s <= start && end <= e)) return
      const dest = image.subarray(start, end)
      for (let got = 0; got < dest.length; ) {
        const n = readSync(fh.fd, dest, got, dest.length - got, start + got)
        if (n === 0) throw new Error(`the file ended at ${start + got} of ${size} bytes while reading it (changed while open?)`)
        got += n
      }
      toBigEndian(dest, order)
      filled.push([start, end])
    })
    const sr = openStadiumRom(image, file, md5.digest('hex'), n64Identities())
    return { ...sr, rom: { ...sr.rom, byteOrder: order } }
  } finally {
    await fh.close()
  }
}
