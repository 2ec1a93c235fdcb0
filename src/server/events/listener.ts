import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { EVENT_CHANNEL, type EventBus } from './events.js';

/**
 * A dedicated session that LISTENs for changes made by other nodes and hands them to the bus.
 * It reconnects after losing the server (delivering `events.resync` on reconnect, since
 * notifications sent meanwhile are lost), and stops with `close()`.
 */
export function listenForEvents(url: string, bus: EventBus, db: Kysely<DB>, log: FastifyBaseLogger): { ready: Promise<void>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  let everConnected = false;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel !== EVENT_CHANNEL) return;
      bus.heard(db, message.payload).catch((error: unknown) => {
        log.warn({ err: error }, 'unreadable domain event notification; asking every handler to resynchronise');
        void bus.deliver('events.resync', { reason: 'unreadable notification' }, { id: 0, name: 'events.resync', origin: 'remote' });
      });
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'domain event listener lost its connection');
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`listen ${EVENT_CHANNEL}`);
      client = next;
      // Notifications sent while this node was away are lost: every handler resynchronises.
      if (everConnected) await bus.deliver('events.resync', { reason: 'reconnected' }, { id: 0, name: 'events.resync', origin: 'remote' });
      everConnected = true;
      resolveReady();
    } catch (error) {
      log.warn({ err: error }, 'domain event listener cannot connect; retrying');
      await next.end().catch(() => undefined);
      scheduleReconnect();
    }
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    const old = client;
    client = undefined;
    void old?.end().catch(() => undefined);
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1000);
    retry.unref();
  };

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      resolveReady();
      await client?.end().catch(() => undefined);
    },
  };
}

