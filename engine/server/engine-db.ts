import type { Kysely, Transaction } from 'kysely';

// The engine reads and writes tables named by definitions, which no static DB interface lists:
// the application passes its Kysely instance (or a transaction) typed for any table.
// oxlint-disable-next-line typescript/no-explicit-any
export type EngineDb = Kysely<any>;
// oxlint-disable-next-line typescript/no-explicit-any
export type EngineTransaction = Transaction<any>;
