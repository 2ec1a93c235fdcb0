import type { Audit, Id } from '../../db/schema.js';

/** The outbox area's one table, the e-mail and SMS messages; the foundation migration creates it. */
declare module '../../db/schema.js' {
  interface DB {
    outbox_message: OutboxMessageTable;
  }
}

export interface OutboxMessageTable extends Audit {
  id: Id;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  status: 'stored' | 'sent' | 'failed';
  error: string | null;
}
