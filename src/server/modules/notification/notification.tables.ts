import type { Audit, Id, Timestamp } from '../../db/schema.js';

/** The tables of the notification area; its migration (0075) creates them. */
declare module '../../db/schema.js' {
  interface DB {
    notification: NotificationTable;
  }
}

/**
 * One notification of one user ("notification display"). Title and body are either
 * a locale key with its parameters, rendered in the reader's language when read, or plain text.
 */
export interface NotificationTable extends Audit {
  id: Id;
  user_id: number;
  /** The project the notification is about, when it is about one. */
  project_id: number | null;
  category: string;
  title_key: string | null;
  title_text: string | null;
  body_key: string | null;
  body_text: string | null;
  /** Parameters of the title's and the body's locale texts. */
  params: unknown;
  /** The /page route it opens, e.g. `job` or `asn?asnNo=A1`. */
  link: string | null;
  read_at: Timestamp | null;
}
