import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';

/** Columns every business table carries. */
export interface Audit {
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

/** The postal address and contact columns warehouses, owners and partners carry. */
export interface ContactAddress {
  contact_name: string | null;
  phone: string | null;
  email: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  postal: string | null;
}

export type Id = Generated<number>;

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A numeric column: read as a string for decimal.js, written as a string or an integer. */
export type Numeric = ColumnType<string, string | number, string | number>;

export type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;

/** A numeric column with a database default (0 for quantities): may be left out on insert. */
export type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;

/** A date column that may be null: 'YYYY-MM-DD' text both ways (a Date would shift by the server's time zone). */
export type NullableDate = ColumnType<string | null, string | null | undefined, string | null>;

/** A timestamp column that may be null (and left out on insert). */
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * The database as Kysely sees it. Each area adds its own tables in `modules/<area>/<area>.tables.ts`
 * (`declare module '../../db/schema.js' { interface DB { ... } }`), so this file never lists them.
 */
// oxlint-disable-next-line typescript/no-empty-object-type
export interface DB {}

/** What a read runs on: the database or a transaction of it. */
export type Db = Kysely<DB> | Transaction<DB>;
