import { Readable } from 'node:stream';

/*
 * Files kept in a bytea column (attachments, the download center's files) are sent a slice at a
 * time, so that a large file is never whole in the server's memory.
 */

/** How many bytes one read of a stored file takes. */
export const SLICE_BYTES = 1024 * 1024;

/** Reads `length` bytes from `offset` (from 0); an empty buffer once nothing is left. */
export type SliceReader = (offset: number, length: number) => Promise<Buffer>;

/** The file of `size` bytes as a stream, each slice read when the one before has been sent. */
export function streamInSlices(size: number, readSlice: SliceReader): Readable {
  async function* slices() {
    for (let offset = 0; offset < size; offset += SLICE_BYTES) {
      const slice = await readSlice(offset, SLICE_BYTES);
      if (slice.length === 0) return;
      yield slice;
    }
  }
  return Readable.from(slices());
}

/** A bytea value as the driver hands it (a Buffer from pg, a Uint8Array from PGlite) as a Buffer; nothing is empty. */
export function bufferOf(value: Uint8Array | null | undefined): Buffer {
  if (!value) return Buffer.alloc(0);
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
