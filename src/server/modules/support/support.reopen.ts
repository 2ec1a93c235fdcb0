import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AreaModule } from '../area.js';

/**
 * How an approved reopen request reaches the area that owns the document. The support area knows
 * no document tables: an area that can reopen a kind of document (the inbound area for `asn`)
 * declares a reopener in its manifest,
 *
 *   defineModule({ name: 'inbound', supportReopeners: [{ kind: 'asn', reopen: reopenAsn }], ... })
 *
 * and the approval calls it inside the approval's own transaction, so the approval and the reopened
 * document commit together or not at all. The approval also emits `support.reopenApproved`.
 */
export interface ReopenRequest {
  /** The document's number as the requester typed it (an ASN number). */
  number: string;
  projectId: number;
  /** Login account of the approver. */
  by: string;
  ticketNumber: string;
}

/** `reopened`; `notFound` when the project has no such document; `notClosed` when it is not closed. */
export type ReopenOutcome = 'reopened' | 'notFound' | 'notClosed';

export interface SupportReopener {
  /** The kind of document, e.g. `asn`. */
  kind: string;
  reopen(trx: Transaction<DB>, request: ReopenRequest): Promise<ReopenOutcome>;
}

declare module '../../area-kit/area.js' {
  interface AreaModule {
    /** Kinds of documents this area reopens when a support request to reopen one is approved. */
    supportReopeners?: SupportReopener[];
  }
}

declare module '../../events/events.js' {
  interface DomainEvents {
    /** A reopen request was approved and the owning area reopened the document (same transaction). */
    'support.reopenApproved': { kind: string; number: string; projectId: number; ticketId: number };
    /** A ticket changed (created, message, closed, reopened, approved). */
    'support.ticketChanged': { ticketId: number; action: string };
  }
}

/** The reopener of a kind among the application's areas; a kind two areas claim is an error. */
export function findReopener(modules: readonly AreaModule[], kind: string): SupportReopener | undefined {
  const found = modules.flatMap((m) => (m.supportReopeners ?? []).filter((r) => r.kind === kind));
  if (found.length > 1) throw new Error(`two areas reopen documents of kind ${kind}`);
  return found[0];
}
