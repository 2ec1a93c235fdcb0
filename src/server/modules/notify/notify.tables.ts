import type { Audit, Id } from '../../db/schema.js';

/** The tables of the notify area; its migrations create them. */
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
