import type { Kysely, Transaction } from 'kysely';

// The engine reads and writes tables named by definitions, which no static DB interface lists:
// the application passes its Kysely instance (or a transaction) typed for any table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EngineDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EngineTransaction = Transaction<any>;
