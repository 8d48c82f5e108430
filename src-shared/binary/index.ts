export { Reader, type Endian, type ReaderOptions } from './reader'
export { Writer, type Reservation } from './writer'
export { FormatError, LimitError, hex, inFile, type FormatErrorContext } from './errors'
