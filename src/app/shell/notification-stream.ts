import { getToken } from '../api/token';
import { parseEventFrames } from './notification-groups';

const RETRY_MS = 3_000;

/**
 * Listens to GET /api/notification/stream (server-sent events) and calls `onChange` whenever the
 * user's notifications change, and once each time the stream (re)opens, since anything may have
 * happened while it was closed. The stream is read with `fetch`, so that the token travels in the
 * Authorization header as on every call (a cookie alone never authorizes);
 * it reconnects after a lost connection and stops for good when the session is refused.
 * Answers the function that stops it.
 */
export function followNotifications(onChange: () => void): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async (): Promise<void> => {
    const token = getToken();
    if (!token || controller.signal.aborted) return;
    try {
      const response = await fetch('/api/notification/stream', {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      // The session ended: the shell's own calls take the user to sign in again.
      if (response.status === 401 || response.status === 403) return;
      if (response.status === 200 && response.body) {
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseEventFrames(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          if (parsed.events.some((event) => event === 'ready' || event === 'notification')) onChange();
        }
      }
    } catch {
      // Lost connection or stopped; retried below unless stopped.
    }
    if (!controller.signal.aborted) timer = setTimeout(() => void connect(), RETRY_MS);
  };

  void connect();
  return () => {
    controller.abort();
    if (timer) clearTimeout(timer);
  };
}
