import { describe, expect, it } from 'vitest';
import { markMemoryImportShared } from '../../src/server/db/pglite-interrupt.js';

/** `(module (import "env" "memory" (memory 1)))`, and the same with a maximum of 4 pages. */
const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const IMPORT = [0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02];
const withoutMaximum = Uint8Array.from([...HEADER, 0x02, IMPORT.length + 2, ...IMPORT, 0x00, 0x01]);
const withMaximum = Uint8Array.from([...HEADER, 0x02, IMPORT.length + 3, ...IMPORT, 0x01, 0x01, 0x04]);

function links(bytes: Uint8Array, memory: WebAssembly.Memory): boolean {
  try {
    new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), { env: { memory } });
    return true;
  } catch {
    return false;
  }
}

describe('PGlite shared memory', () => {
  it('declares the imported memory shared, with or without a maximum', () => {
    const shared = new WebAssembly.Memory({ initial: 1, maximum: 32768, shared: true });
    const plain = new WebAssembly.Memory({ initial: 1, maximum: 4 });
    expect(links(withoutMaximum, plain)).toBe(true);
    expect(links(withoutMaximum, shared)).toBe(false);
    expect(links(markMemoryImportShared(withoutMaximum), shared)).toBe(true);
    expect(links(markMemoryImportShared(withoutMaximum), plain)).toBe(false);
    const upToFour = markMemoryImportShared(withMaximum);
    expect(links(upToFour, new WebAssembly.Memory({ initial: 1, maximum: 4, shared: true }))).toBe(true);
    expect(links(upToFour, shared)).toBe(false);
  });

  it('refuses what is not a module importing memory', () => {
    expect(() => markMemoryImportShared(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/not a WebAssembly module/);
    expect(() => markMemoryImportShared(Uint8Array.from(HEADER))).toThrow(/imports no memory/);
  });
});
