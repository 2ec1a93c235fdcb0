import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/schema.js';

/** The PostgreSQL channel on which every app node hears that definitions changed (DESIGN.md section 9). */
export const DEFINITION_CHANNEL = 'wms_page_definition_changed';

/** Which resolved definitions are stale: one page of one project, a whole project, or everything. */
export interface DefinitionChange {
  projectId: number | null;
  moduleCode?: string;
  functionCode?: string;
  /** Everything (the "clear cache" button). */
  all?: boolean;
}

export type DefinitionChangeListener = (change: DefinitionChange) => void;

/**
 * The per-process hub of definition changes. The resolved-definition cache of the engine
 * subscribes here; a publish, rollback, copy or import calls `changed` after its commit (so this
 * node is current at once) and queues a NOTIFY inside its transaction (so every other node hears
 * it at commit and not before).
 */
export class DefinitionEvents {
  private readonly listeners = new Set<DefinitionChangeListener>();

  subscribe(listener: DefinitionChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells this process's listeners; a failing listener must not hide the change from the others. */
  changed(change: DefinitionChange, log?: FastifyBaseLogger): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        log?.error({ err: error, change }, 'definition change listener failed');
      }
    }
  }
}

/** Queues the NOTIFY in the caller's transaction: PostgreSQL delivers it at commit, never on rollback. */
export async function notifyDefinitionChange(db: Kysely<DB>, change: DefinitionChange): Promise<void> {
  await sql`select pg_notify(${DEFINITION_CHANNEL}, ${JSON.stringify(change)})`.execute(db);
}

/**
 * A dedicated session that LISTENs for changes made by other nodes and hands them to `events`.
 * It reconnects after losing the server (with a full flush on reconnect, since notifications sent
 * meanwhile are lost), and stops with `close()`.
 */
export function listenForDefinitionChanges(url: string, events: DefinitionEvents, log: FastifyBaseLogger): { ready: Promise<void>; close(): Promise<void> } {
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
      if (message.channel !== DEFINITION_CHANNEL) return;
      try {
        events.changed(JSON.parse(message.payload ?? '{}') as DefinitionChange, log);
      } catch (error) {
        log.warn({ err: error }, 'unreadable definition change notification; flushing every definition');
        events.changed({ projectId: null, all: true }, log);
      }
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'definition change listener lost its connection');
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`listen ${DEFINITION_CHANNEL}`);
      client = next;
      if (everConnected) events.changed({ projectId: null, all: true }, log);
      everConnected = true;
      resolveReady();
    } catch (error) {
      log.warn({ err: error }, 'definition change listener cannot connect; retrying');
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

const hubs = new WeakMap<object, DefinitionEvents>();

/**
 * The change hub of one app's database. Keyed by the database so that the engine's cache and the
 * designer find the same hub whatever order their modules are registered in.
 */
export function definitionEventsOf(database: object): DefinitionEvents {
  let hub = hubs.get(database);
  if (!hub) {
    hub = new DefinitionEvents();
    hubs.set(database, hub);
  }
  return hub;
}
