import { sql, type Generated, type Kysely, type Migration, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.js';
import { afterCommit } from '../db/transaction.js';

/**
 * Typed domain events (`events/`). Each area adds the events it emits to this
 * map in its own files:
 *
 *   declare module '../../events/events.js' {
 *     interface DomainEvents { 'inbound.asnReceived': { asnId: number } }
 *   }
 *
 * `emit` inside a transaction writes an outbox row (`domain_event`) and queues a NOTIFY; after the
 * commit the event is delivered to this process's handlers, and PostgreSQL delivers the NOTIFY to
 * every other app node, whose listener hands it to its own handlers. A rolled-back transaction
 * delivers nothing anywhere.
 */
export interface DomainEvents {
  /** Published page definitions changed: one page of one project, a whole project, or everything (`all`). */
  'definition.changed': DefinitionChange;
  /** Delivered by the listener itself (never emitted) when notifications may have been lost: caches flush. */
  'events.resync': { reason: string };
}

/** Which resolved definitions are stale (the engine's definition cache listens). */
export interface DefinitionChange {
  projectId: number | null;
  moduleCode?: string;
  functionCode?: string;
  /** Everything (the "clear cache" button). */
  all?: boolean;
}

export type DomainEventName = keyof DomainEvents;

export interface DeliveredEvent<Name extends DomainEventName = DomainEventName> {
  id: number;
  name: Name;
  /** 'local': emitted by this process; 'remote': heard from another node. */
  origin: 'local' | 'remote';
}

export type DomainEventHandler<Name extends DomainEventName = DomainEventName> = (
  payload: DomainEvents[Name],
  event: DeliveredEvent<Name>,
) => void | Promise<void>;

/** The PostgreSQL channel every node listens on. */
export const EVENT_CHANNEL = 'wms_domain_event';

interface DomainEventTable {
  id: Generated<number>;
  name: string;
  payload: unknown;
  node: string;
  created_at: Generated<Date>;
}

declare module '../db/schema.js' {
  interface DB {
    domain_event: DomainEventTable;
  }
}

/** The outbox of domain events (kept for audit and replay; a platform job purges old rows). */
export const eventMigrations: Record<string, Migration> = {
  '0060_domain_event': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('domain_event')
        .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('payload', 'jsonb', (col) => col.notNull())
        .addColumn('node', 'text', (col) => col.notNull())
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`create index domain_event_name_created on domain_event (name, created_at)`.execute(db);
    },
  },
};

// Largest NOTIFY payload PostgreSQL takes is 8000 bytes; larger events travel as their id only.
const NOTIFY_LIMIT = 7000;

/** One process's event bus: the handlers of the modules plus any subscriber. */
export class EventBus {
  /** Tells this node's own notifications from the others'. */
  readonly node = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly handlers = new Map<string, Set<DomainEventHandler>>();

  constructor(private readonly log?: FastifyBaseLogger) {}

  on<Name extends DomainEventName>(name: Name, handler: DomainEventHandler<Name>): () => void {
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    set.add(handler as unknown as DomainEventHandler);
    return () => set.delete(handler as unknown as DomainEventHandler);
  }

  /**
   * Records the event in the caller's transaction (which `inTransaction` opened) and delivers it
   * after the commit: here at once, on the other nodes through NOTIFY.
   */
  async emit<Name extends DomainEventName>(trx: Transaction<DB>, name: Name, payload: DomainEvents[Name]): Promise<void> {
    const { id } = await trx
      .insertInto('domain_event')
      .values({ name, payload: JSON.stringify(payload), node: this.node })
      .returning('id')
      .executeTakeFirstOrThrow();
    const eventId = Number(id);
    let message = JSON.stringify({ id: eventId, name, node: this.node, payload });
    if (message.length > NOTIFY_LIMIT) message = JSON.stringify({ id: eventId, name, node: this.node });
    await sql`select pg_notify(${EVENT_CHANNEL}, ${message})`.execute(trx);
    afterCommit(trx, () => this.deliver(name, payload, { id: eventId, name, origin: 'local' }));
  }

  /** Hands an event to every handler; a failing handler is logged and never hides it from the others. */
  async deliver(name: string, payload: unknown, event: DeliveredEvent): Promise<void> {
    for (const handler of this.handlers.get(name) ?? []) {
      try {
        await handler(payload as never, event);
      } catch (error) {
        this.log?.error({ err: error, event: name, id: event.id }, 'domain event handler failed');
      }
    }
  }

  /** A notification heard from the database: delivered unless this node sent it. */
  async heard(db: Kysely<DB>, text: string | undefined): Promise<void> {
    const message = JSON.parse(text ?? '{}') as { id?: number; name?: string; node?: string; payload?: unknown };
    if (!message.name || !message.id || message.node === this.node) return;
    let payload = message.payload;
    if (payload === undefined) {
      const row = await db.selectFrom('domain_event').select('payload').where('id', '=', message.id).executeTakeFirst();
      if (!row) return;
      payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    }
    await this.deliver(message.name, payload, { id: message.id, name: message.name as never, origin: 'remote' });
  }
}
