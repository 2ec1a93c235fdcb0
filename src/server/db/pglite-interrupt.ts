import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PGlite, type Extension, type PGliteOptions } from '@electric-sql/pglite';

/**
 * Statement timeouts on embedded PGlite.
 *
 * PGlite runs PostgreSQL as WebAssembly on the JavaScript thread. PostgreSQL stops a statement
 * that outlives `statement_timeout` from a timer signal, and no signal can reach code that is
 * running on this thread: without help, a heavy query holds the one embedded session (and with
 * it every other request) for as long as it runs.
 *
 * The help: PGlite's memory is made a SharedArrayBuffer, and a small watchdog thread shares it.
 * Before every statement the driver asks PostgreSQL for the `statement_timeout` in force and arms
 * the watchdog with it; when the statement is still running at the deadline, the watchdog raises
 * PostgreSQL's own "query cancel" flags in that memory, exactly what the signal handler would do.
 * The statement's next interrupt check (PostgreSQL makes one for every row and in every long loop)
 * ends it with SQLSTATE 57014, the transaction is rolled back as for any error, and the session
 * serves the next request. Nothing is restarted and nothing committed is lost.
 *
 * PGlite's WebAssembly module declares a non-shared memory; the only change made to it is that
 * one flag of its memory import (the module is otherwise byte for byte PGlite's own).
 */

/** What the driver needs around each statement. */
export interface StatementTimer {
  /** Runs one statement; past the `statement_timeout` in force when it starts, it is cancelled. */
  around<T>(statement: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Opens PGlite with interruptible statements. `options.dataDir` must hold an existing cluster, or be
 * undefined (memory); a cluster in memory starts from `initialCluster` (a `dumpDataDir` dump) when given.
 */
export async function openInterruptiblePGlite(
  options: Omit<PGliteOptions, 'loadDataDir' | 'pgliteWasmModule' | 'extensions'>,
  initialCluster?: Blob,
): Promise<{ pglite: PGlite; timer: StatementTimer }> {
  const module = await sharedMemoryModule();
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
  let emscripten: EmscriptenModule | undefined;
  // PGlite lets an extension replace the options it hands to Emscripten: the memory is swapped
  // for the shared one, and the options object becomes the module, whose symbol table we need.
  const sharedMemory: Extension = {
    name: 'wms-shared-memory',
    setup: (_pg, emscriptenOpts: Record<string, unknown>) => {
      emscripten = { ...emscriptenOpts, wasmMemory: memory } as unknown as EmscriptenModule;
      return Promise.resolve({ emscriptenOpts: emscripten });
    },
  };
  // A cluster in memory is loaded from a fresh one (PGlite's own initdb cannot run on the
  // changed module).
  const loadDataDir = options.dataDir === undefined ? (initialCluster ?? (await freshCluster())) : undefined;
  const pglite = await PGlite.create({
    ...options,
    ...(loadDataDir ? { loadDataDir } : {}),
    pgliteWasmModule: module,
    extensions: { wmsSharedMemory: sharedMemory },
  });
  try {
    if (!emscripten || !(memory.buffer instanceof SharedArrayBuffer)) throw new Error('PGlite did not take the shared memory');
    shareSideModules(emscripten.FS);
  } catch (error) {
    await pglite.close();
    throw error;
  }
  return { pglite, timer: new WatchdogTimer(emscripten, memory.buffer) };
}

/** PGlite's default first size (128 MB) and its maximum (2 GB), in 64 KiB pages. */
const INITIAL_PAGES = 2048;
const MAXIMUM_PAGES = 32768;

interface EmscriptenFs {
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
}

interface EmscriptenModule {
  FS: EmscriptenFs;
  _InterruptPending: number;
  _QueryCancelPending: number;
  _GetConfigOption(name: number, missingOk: boolean, restrictPrivileged: boolean): number;
  stringToNewUTF8(text: string): number;
  UTF8ToString(pointer: number): string;
}

const require = createRequire(import.meta.url);
let compiled: Promise<WebAssembly.Module> | undefined;
let cluster: Promise<Blob> | undefined;

/** PGlite's module with its memory import marked shared, compiled once per process. */
function sharedMemoryModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const file = require.resolve('@electric-sql/pglite/pglite.wasm');
    return WebAssembly.compile(markMemoryImportShared(await fs.promises.readFile(file)));
  })();
  return compiled;
}

/**
 * A freshly initialized cluster as PGlite dumps it. Making one runs initdb (seconds), so it is made
 * once per process and kept in the system's temporary folder for this build of PGlite: databases
 * in memory (the tests) then start from a copy.
 */
function freshCluster(): Promise<Blob> {
  cluster ??= (async () => {
    const wasm = fs.statSync(require.resolve('@electric-sql/pglite/pglite.wasm'));
    const cached = path.join(os.tmpdir(), `wms-pglite-cluster-${wasm.size}-${Math.trunc(wasm.mtimeMs)}.tar`);
    try {
      return new Blob([await fs.promises.readFile(cached)]);
    } catch {
      // Not made yet on this machine.
    }
    const plain = await PGlite.create();
    let dump: Blob;
    try {
      dump = await plain.dumpDataDir('none');
    } finally {
      await plain.close();
    }
    // Written aside and renamed, so a concurrent reader never sees half a file.
    const scratch = `${cached}.${process.pid}.${Date.now()}`;
    try {
      await fs.promises.writeFile(scratch, new Uint8Array(await dump.arrayBuffer()));
      await fs.promises.rename(scratch, cached);
    } catch {
      await fs.promises.rm(scratch, { force: true });
    }
    return dump;
  })();
  return cluster;
}

/**
 * Declares the memory a WebAssembly binary imports as shared, with PGlite's maximum when it
 * declares none (a shared memory must have one). Only the limits of that one import change; the
 * import section's size is written anew. Throws when the binary imports no memory.
 */
export function markMemoryImportShared(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const readU32 = (at: number): [number, number] => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return [value >>> 0, at];
  };
  const skipName = (at: number) => {
    const [length, next] = readU32(at);
    return next + length;
  };
  if (bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('not a WebAssembly module');
  let at = 8;
  while (at < bytes.length) {
    const sectionStart = at;
    const section = bytes[at++];
    let size: number;
    [size, at] = readU32(at);
    const contentStart = at;
    const end = at + size;
    if (section === 2) {
      let count: number;
      [count, at] = readU32(at);
      for (let i = 0; i < count; i++) {
        at = skipName(skipName(at));
        const kind = bytes[at++];
        if (kind === 0) [, at] = readU32(at); // function: type index
        else if (kind === 1) {
          // table: element type, limits
          at++;
          const flags = bytes[at++];
          [, at] = readU32(at);
          if (flags & 1) [, at] = readU32(at);
        } else if (kind === 2) {
          const flags = bytes[at];
          if (flags !== 0x00 && flags !== 0x01 && flags !== 0x03) throw new Error(`unexpected memory limits 0x${flags.toString(16)}`);
          const [minimum, afterMinimum] = readU32(at + 1);
          let maximum = MAXIMUM_PAGES;
          let after = afterMinimum;
          if (flags & 1) [maximum, after] = readU32(after);
          const limits = [0x03, ...encodeU32(minimum), ...encodeU32(maximum)];
          const contentLength = at - contentStart + limits.length + (end - after);
          // Copied with typed-array copies: the binary is megabytes, too big to spread into arrays.
          return concatBytes([
            bytes.subarray(0, sectionStart + 1),
            encodeU32(contentLength),
            bytes.subarray(contentStart, at),
            limits,
            bytes.subarray(after, end),
            bytes.subarray(end),
          ]);
        } else if (kind === 3) at += 2; // global: value type, mutability
        else throw new Error(`unknown import kind ${kind}`);
      }
    }
    at = end;
  }
  throw new Error('the module imports no memory');
}

function concatBytes(parts: ArrayLike<number>[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function encodeU32(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

/**
 * PostgreSQL loads some of its code at run time (PL/pgSQL, text search dictionaries, encoding
 * conversions) as WebAssembly side modules that import the same memory: their files in PGlite's
 * file system are rewritten to declare it shared too, before any statement can load one.
 */
function shareSideModules(fs: EmscriptenFs): void {
  for (const name of fs.readdir(LIBRARY_DIR)) {
    if (!name.endsWith('.so')) continue;
    const file = `${LIBRARY_DIR}/${name}`;
    fs.writeFile(file, markMemoryImportShared(fs.readFile(file)));
  }
}

const LIBRARY_DIR = '/pglite/lib/postgresql';

/** Control word states; a positive value is the token of the armed statement. */
const IDLE = 0;
const CLAIMED = -1;
const FIRED = -2;

/**
 * The watchdog thread: sleeps until a statement is armed, then until its deadline or until it is
 * disarmed; at the deadline it claims the statement (so the driver knows) and raises the flags.
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
const heap = new Int32Array(workerData.heap);
for (;;) {
  Atomics.wait(control, 0, ${IDLE});
  const token = Atomics.load(control, 0);
  if (token <= 0) { Atomics.wait(control, 0, token); continue; }
  const deadline = performance.now() + Atomics.load(control, 1);
  for (let left = deadline - performance.now(); left > 0 && Atomics.load(control, 0) === token; left = deadline - performance.now()) {
    Atomics.wait(control, 0, token, left);
  }
  if (Atomics.compareExchange(control, 0, token, ${CLAIMED}) === token) {
    Atomics.store(heap, workerData.queryCancelPending, 1);
    Atomics.store(heap, workerData.interruptPending, 1);
    Atomics.store(control, 0, ${FIRED});
    Atomics.notify(control, 0);
  }
}`;

class WatchdogTimer implements StatementTimer {
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private readonly heap: Int32Array;
  private readonly worker: Worker;
  private readonly settingName: number;
  private readonly cancelIndex: number;
  private readonly interruptIndex: number;
  private token = 0;

  constructor(
    private readonly mod: EmscriptenModule,
    buffer: SharedArrayBuffer,
  ) {
    if (mod._QueryCancelPending % 4 !== 0 || mod._InterruptPending % 4 !== 0) throw new Error('interrupt flags are not word aligned');
    this.heap = new Int32Array(buffer);
    this.cancelIndex = mod._QueryCancelPending / 4;
    this.interruptIndex = mod._InterruptPending / 4;
    this.settingName = mod.stringToNewUTF8('statement_timeout');
    this.worker = new Worker(WATCHDOG, {
      eval: true,
      workerData: { control: this.control.buffer, heap: buffer, queryCancelPending: this.cancelIndex, interruptPending: this.interruptIndex },
    });
    // The thread never keeps the process alive.
    this.worker.unref();
  }

  /** The statement_timeout in force now, in milliseconds (0: none). */
  private statementTimeoutMs(): number {
    const value = Number(this.mod.UTF8ToString(this.mod._GetConfigOption(this.settingName, true, false)));
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  async around<T>(statement: () => Promise<T>): Promise<T> {
    const ms = this.statementTimeoutMs();
    if (ms === 0) return statement();
    this.token = (this.token % 0x3fffffff) + 1;
    const token = this.token;
    Atomics.store(this.control, 1, ms);
    Atomics.store(this.control, 0, token);
    Atomics.notify(this.control, 0);
    try {
      return await statement();
    } finally {
      this.disarm(token);
    }
  }

  private disarm(token: number): void {
    if (Atomics.compareExchange(this.control, 0, token, IDLE) === token) {
      Atomics.notify(this.control, 0);
      return;
    }
    // The watchdog fired: let it finish raising the flags, then lower them, so that a statement
    // which ended on its own just before the deadline cannot leave them to cancel the next one.
    while (Atomics.load(this.control, 0) === CLAIMED) Atomics.wait(this.control, 0, CLAIMED, 5);
    Atomics.store(this.heap, this.cancelIndex, 0);
    Atomics.store(this.heap, this.interruptIndex, 0);
    Atomics.store(this.control, 0, IDLE);
    Atomics.notify(this.control, 0);
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
