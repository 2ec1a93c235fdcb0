import type { ColumnType, Generated } from 'kysely';

/** Columns every business table carries (DESIGN.md section 4). */
export interface Audit {
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export type Id = Generated<number>;

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A numeric column: read as a string for decimal.js, written as a string or an integer. */
export type Numeric = ColumnType<string, string | number, string | number>;

export type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;

/**
 * The database as Kysely sees it. Each area adds its own tables in `modules/<area>/<area>.tables.ts`
 * (`declare module '../../db/schema.js' { interface DB { ... } }`), so this file never lists them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DB {}
