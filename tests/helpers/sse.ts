/** One server-sent event as a stream delivers it. */
export interface ServerEvent {
  event: string;
  data: string;
}

export interface OpenStream {
  status: number;
  /** Every event received so far, in order. */
  events: ServerEvent[];
  close(): void;
}

/**
 * Opens a server-sent events stream with `fetch` (as the browser does, so that the token travels in
 * the Authorization header) and collects its events until closed.
 */
export async function openEventStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: ServerEvent[] = [];
  if (response.status === 200 && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of frame.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trim());
            }
            if (data.length) events.push({ event, data: data.join('\n') });
          }
        }
      } catch {
        // Closed by the test or by the server.
      }
    })();
  } else {
    await response.body?.cancel();
  }
  return { status: response.status, events, close: () => controller.abort() };
}
