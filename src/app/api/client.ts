import type { ErrorBody } from '../../common/errors';
import { clearSession, getToken } from './token';

/** A failed call: the server's `{ code, message, details }` and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }
}

type Listener = (event: { type: 'start' } | { type: 'end' } | { type: 'error'; error: ApiError } | { type: 'unauthorized' }) => void;
const listeners = new Set<Listener>();

/** The shell subscribes here for the loading indicator, error popups and the 401/403 redirect. */
export function onApiEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: Parameters<Listener>[0]) {
  for (const listener of listeners) listener(event);
}

let currentLanguage = 'en';
export function setApiLanguage(language: string): void {
  currentLanguage = language;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Do not show the error popup: the caller shows the error itself (e.g. on a form field). */
  quiet?: boolean;
  signal?: AbortSignal;
  /** More request headers, e.g. a scan's `Idempotency-Key` (docs/handheld.md). */
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: CallOptions['query']): string {
  const url = `/api${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

async function send(path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers, 'x-language': currentLanguage };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  emit({ type: 'start' });
  try {
    const response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: options.signal,
    });
    // Any status but 200 rejects the call.
    if (response.status !== 200) {
      let errorBody: ErrorBody;
      try {
        errorBody = (await response.json()) as ErrorBody;
      } catch {
        errorBody = { code: 'INTERNAL', message: response.statusText || `HTTP ${response.status}` };
      }
      const error = new ApiError(response.status, errorBody);
      // A 401 or 403 clears the stored token, menu and active menu, and the shell
      // sends the user to the root.
      if (response.status === 401 || response.status === 403) {
        clearSession();
        emit({ type: 'unauthorized' });
      }
      if (!options.quiet) emit({ type: 'error', error });
      throw error;
    }
    return response;
  } finally {
    emit({ type: 'end' });
  }
}

/** A JSON call to `/api<path>` with the bearer token; rejects with ApiError on any status but 200. */
export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const response = await send(path, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A blob download (exports): saves the answer under the file name the server gives. */
export async function download(path: string, options: CallOptions = {}): Promise<void> {
  const response = await send(path, options);
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  const name = decodeURIComponent(match?.[1] ?? match?.[2] ?? 'download');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** A blob call whose answer stays in the page (the preview screen): the bytes, their type and name. */
export async function fetchBlob(path: string, options: CallOptions = {}): Promise<{ blob: Blob; contentType: string; fileName: string }> {
  const response = await send(path, options);
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  return { blob, contentType: response.headers.get('content-type') ?? blob.type, fileName: decodeURIComponent(match?.[1] ?? match?.[2] ?? '') };
}
