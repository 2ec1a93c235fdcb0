import { sql, type CreateTableBuilder } from 'kysely';

/** Adds the identity key and the audit columns every business table carries. */
export function withIdAndAudit<T extends string>(table: CreateTableBuilder<T, never>) {
  return withAudit(table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity()));
}

export function withAudit<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text');
}
