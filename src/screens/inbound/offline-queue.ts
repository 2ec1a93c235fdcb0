import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { api, ApiError } from '../../app/public';

/**
 * The offline queue of the handheld flows (docs/handheld.md, "Offline queue"). Every scan gets an
 * idempotency key when it is taken. When the server cannot be reached (the browser is offline, or
 * the call fails without an answer) the scan is stored in IndexedDB with its key, and the screen
 * keeps taking scans. Once the connection is back the waiting scans are sent in the order they were
 * taken, one at a time, each with its key, so that a scan that did reach the server before is not
 * applied again. A scan the server refuses on replay goes to the refused list, which the user
 * acknowledges; the rest go on. Both lists survive a reload.
 */

export interface QueuedScan {
  /** Order of taking (IndexedDB key). */
  seq?: number;
  /** The idempotency key, made when the scan was taken. */
  key: string;
  /** The user who took it: only his session sends it. */
  uid: number;
  /** The flow (`pick`, `putaway`, ...) and a line telling the scan apart, for the lists. */
  flow: string;
  label: string;
  path: string;
  body: unknown;
  takenAt: number;
}

export interface RefusedScan extends QueuedScan {
  code: string;
  reason: string;
}

interface QueueSchema extends DBSchema {
  waiting: { key: number; value: QueuedScan };
  refused: { key: number; value: RefusedScan };
}

export interface QueueState {
  waiting: QueuedScan[];
  refused: RefusedScan[];
  online: boolean;
}

let opened: Promise<IDBPDatabase<QueueSchema>> | undefined;
function database(): Promise<IDBPDatabase<QueueSchema>> {
  opened ??= openDB<QueueSchema>('wms-handheld', 1, {
    upgrade(db) {
      db.createObjectStore('waiting', { keyPath: 'seq', autoIncrement: true });
      db.createObjectStore('refused', { keyPath: 'seq', autoIncrement: true });
    },
  });
  return opened;
}

/** A random key (UUID v4); `crypto.randomUUID` exists only on https and localhost, a handheld may use plain http on the LAN. */
export function newScanKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server did not answer (no network, or a gateway in front of it answering for it): keep the scan and try later. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 504 || (error.status === 503 && error.body.code !== 'DATABASE_UNAVAILABLE');
  return error instanceof TypeError || (error instanceof Error && error.name === 'AbortError');
}

const online = () => typeof navigator === 'undefined' || navigator.onLine;

/**
 * The last call of a scan got no answer (a dead spot while the browser still thinks it is online):
 * shown as offline until a call gets through again.
 */
let unreachable = false;
const connected = () => online() && !unreachable;

let state: QueueState = { waiting: [], refused: [], online: online() };
const listeners = new Set<(state: QueueState) => void>();
/** Called with the scans a replay applied, so that a screen reloads what they changed. */
const appliedListeners = new Set<(scans: QueuedScan[]) => void>();
let currentUid: number | null = null;

async function refresh(): Promise<void> {
  const db = await database();
  const [waiting, refused] = await Promise.all([db.getAll('waiting'), db.getAll('refused')]);
  state = { waiting: waiting.filter((s) => s.uid === currentUid), refused: refused.filter((s) => s.uid === currentUid), online: connected() };
  for (const listener of listeners) listener(state);
}

export function subscribeQueue(listener: (state: QueueState) => void): () => void {
  listeners.add(listener);
  listener(state);
  return () => listeners.delete(listener);
}

export function onReplayApplied(listener: (scans: QueuedScan[]) => void): () => void {
  appliedListeners.add(listener);
  return () => appliedListeners.delete(listener);
}

/** Sends a scan with its key; whether the server answered (a refusal is an answer) is remembered. */
async function call<T>(scan: QueuedScan): Promise<T> {
  try {
    const answer = await api<T>(scan.path, { body: scan.body, quiet: true, headers: { 'Idempotency-Key': scan.key } });
    unreachable = false;
    return answer;
  } catch (error) {
    unreachable = isUnreachable(error);
    throw error;
  }
}

let draining = false;
/** While held (a handheld whose device session ended, until it signs in again), nothing is sent; what waits stays. */
let held = false;

/** Holds the waiting scans (kept, not sent) or lets them go again, sending what waits. */
export function holdQueue(hold: boolean): void {
  held = hold;
  if (!hold) void drain();
}

/** Sends the waiting scans of the user in order, one at a time, until one cannot reach the server. */
export async function drain(): Promise<void> {
  if (draining || held || currentUid === null) return;
  draining = true;
  const applied: QueuedScan[] = [];
  try {
    const db = await database();
    for (;;) {
      if (!online() || held) break;
      const next = (await db.getAll('waiting')).find((s) => s.uid === currentUid);
      if (!next?.seq) break;
      try {
        await call(next);
        applied.push(next);
      } catch (error) {
        if (isUnreachable(error)) break;
        const body = error instanceof ApiError ? error.body : { code: 'INTERNAL', message: String(error) };
        const { seq: _taken, ...scan } = next;
        await db.add('refused', { ...scan, code: body.code, reason: body.message });
      }
      await db.delete('waiting', next.seq);
      await refresh();
    }
  } finally {
    draining = false;
    await refresh();
    if (applied.length > 0) for (const listener of appliedListeners) listener(applied);
  }
}

/** The user whose scans this browser sends now (the session's). */
export async function startQueue(uid: number | null): Promise<void> {
  currentUid = uid;
  await refresh();
  void drain();
}

let watching = false;
/** Sends what waits when the browser is online again, and every few seconds while something waits. */
export function watchConnection(): void {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  const changed = () => {
    void refresh();
    void drain();
  };
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  window.setInterval(() => {
    if (state.waiting.length > 0 && online()) void drain();
  }, 3000);
}

export type ScanOutcome<T> = { queued: false; answer: T } | { queued: true };

/**
 * Sends a scan with its new idempotency key (or the one the caller made for it, to refer to the
 * scan afterwards), or stores it when the server cannot be reached. While
 * scans wait, a new one waits behind them (scans apply in the order taken). A refusal of the
 * server is thrown as the ApiError it is.
 */
export async function sendScan<T>(scan: { flow: string; label: string; path: string; body: unknown; key?: string }): Promise<ScanOutcome<T>> {
  if (currentUid === null) throw new Error('the scan queue has no user');
  const queued: QueuedScan = { flow: scan.flow, label: scan.label, path: scan.path, body: scan.body, key: scan.key ?? newScanKey(), uid: currentUid, takenAt: Date.now() };
  const store = async (): Promise<ScanOutcome<T>> => {
    await (await database()).add('waiting', queued);
    await refresh();
    return { queued: true };
  };
  if (!online() || state.waiting.length > 0) return store();
  try {
    return { queued: false, answer: await call<T>(queued) };
  } catch (error) {
    if (isUnreachable(error)) return store();
    throw error;
  }
}

/** The user has read a refusal: it leaves the list. */
export async function acknowledgeRefusal(seq: number): Promise<void> {
  await (await database()).delete('refused', seq);
  await refresh();
}
