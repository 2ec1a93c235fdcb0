import { LAUNDRY_DEVICE_HEADER } from '../../common/laundry-api';

/**
 * The laundry phone screens' calls (docs/laundry.md): no session token, the device key kept in
 * this browser's localStorage sent in `X-Laundry-Device`. A refusal never touches the signed-in
 * session of the shell (the shell's `api()` would clear it on a 401).
 */
const STORAGE_KEY = 'wms.laundry.deviceKey';

export function storedDeviceKey(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeDeviceKey(key: string | null): void {
  if (key === null) window.localStorage.removeItem(STORAGE_KEY);
  else window.localStorage.setItem(STORAGE_KEY, key);
}

/** A refused call: the server's code and its message in the user's language. */
export class MooseError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MooseError';
  }
}

/** The codes that mean the device key itself is missing, unknown or revoked. */
export const KEY_REFUSALS = ['LAUNDRY_DEVICE_KEY_MISSING', 'LAUNDRY_DEVICE_UNKNOWN', 'LAUNDRY_DEVICE_REVOKED'];

/** POSTs to `/api<path>` with the device key (or the one given), answering the JSON or throwing MooseError. */
export async function mooseCall<T>(path: string, body: Record<string, unknown>, language: string, key = storedDeviceKey()): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-language': language, ...(key ? { [LAUNDRY_DEVICE_HEADER]: key } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.status !== 200) {
    const error = (parsed ?? {}) as { code?: string; message?: string };
    throw new MooseError(response.status, error.code ?? 'INTERNAL', error.message ?? (response.statusText || `HTTP ${response.status}`));
  }
  return parsed as T;
}
