import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** The tables of the support area (`/support` and the create-ticket screen; `/generic/support/*`). */
declare module '../../db/schema.js' {
  interface DB {
    support_ticket: SupportTicketTable;
    support_message: SupportMessageTable;
    support_log: SupportLogTable;
  }
}

export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_CATEGORIES = ['question', 'problem', 'request', 'data'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
/** `GEN`: a plain ticket; `A01`: a request to reopen a closed ASN, which an approver decides. */
export type TicketType = 'GEN' | 'A01';
export type RequestStatus = 'pending' | 'approved';

/** The ticket header. */
export interface SupportTicketTable extends Audit {
  id: Id;
  /** `SUP0000001`, from a sequence. */
  number: Generated<string>;
  organization_id: number;
  project_id: number;
  ticket_type: TicketType;
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  status: Generated<TicketStatus>;
  requester_user_id: number;
  requester_account: string;
  /** The ASN an A01 request names. */
  document_number: string | null;
  request_status: RequestStatus | null;
  decided_by: string | null;
  decided_at: Date | null;
}

/** The detail: the messages of a ticket. */
export interface SupportMessageTable extends Audit {
  id: Id;
  ticket_id: number;
  author_user_id: number;
  author_account: string;
  body: string;
}

/** Every change of a ticket: who, when, what (`saveLog`). */
export interface SupportLogTable {
  id: Id;
  ticket_id: number;
  at: Generated<Date>;
  user_id: number | null;
  login_account: string;
  action: string;
  details: ColumnType<unknown, string | null, string | null> | null;
}
