import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

/** How often an open stream gets a comment line (keeps proxies from closing it) and its session is checked. */
export const HEARTBEAT_MS = 25_000;

interface Stream {
  userId: number;
  response: ServerResponse;
  /** Whether the stream's session is still alive; a stream whose session ended is closed. */
  alive(): Promise<boolean>;
}

/**
 * The browsers of this app node that are listening for their user's notifications (server-sent
 * events). One per application instance: every node holds its own streams, and the
 * `notification.raised` event, delivered to every node after the commit (LISTEN/NOTIFY, or in
 * process on the embedded database), tells each node whom to push to.
 */
export class NotificationStreams {
  private readonly byUser = new Map<number, Set<Stream>>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Registers an open response; answers the function that forgets it. */
  add(userId: number, response: ServerResponse, alive: () => Promise<boolean>): () => void {
    const stream: Stream = { userId, response, alive };
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(stream);
    this.startHeartbeat();
    return () => {
      set.delete(stream);
      if (!set.size && this.byUser.get(userId) === set) this.byUser.delete(userId);
    };
  }

  /** How many streams are open (for tests and health). */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** Sends one event to every open stream of these users. */
  push(userIds: readonly number[], event: string, data: unknown): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const userId of new Set(userIds)) {
      for (const stream of this.byUser.get(userId) ?? []) this.write(stream, frame);
    }
  }

  /** Sends one event to every open stream (after notifications may have been missed). */
  pushAll(event: string, data: unknown): void {
    this.push([...this.byUser.keys()], event, data);
  }

  /** Ends every stream (the node is shutting down; browsers reconnect to another node). */
  closeAll(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const set of this.byUser.values()) for (const stream of set) stream.response.end();
    this.byUser.clear();
  }

  private write(stream: Stream, frame: string): void {
    try {
      stream.response.write(frame);
    } catch (error) {
      this.log.debug({ err: error }, 'notification stream write failed');
      stream.response.destroy();
    }
  }

  private startHeartbeat(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  private async heartbeat(): Promise<void> {
    for (const set of [...this.byUser.values()]) {
      for (const stream of [...set]) {
        let alive = false;
        try {
          alive = await stream.alive();
        } catch (error) {
          this.log.warn({ err: error }, 'notification stream session check failed');
          alive = true;
        }
        if (alive) this.write(stream, ': keep-alive\n\n');
        else stream.response.end();
      }
    }
  }
}
