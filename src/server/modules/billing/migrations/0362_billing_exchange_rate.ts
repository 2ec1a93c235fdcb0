import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * Exchange rates by date: per project, the rate of one currency (the contract's) into another (the
 * bill's) from a day on. A bill keeps its amounts in both: each line its base amount (contract
 * currency, `amount`) and its local amount (bill currency), the header both totals and the bill
 * currency. Bills made before carry their contract currency as bill currency, amounts unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'exchange_rate', 'project_id')
    .addColumn('from_currency', 'text', (col) => col.notNull())
    .addColumn('to_currency', 'text', (col) => col.notNull())
    .addColumn('rate_date', 'date', (col) => col.notNull())
    .addColumn('rate', sql`numeric(18,6)`, (col) => col.notNull().check(sql`rate > 0`))
    .addUniqueConstraint('exchange_rate_pair_day_key', ['project_id', 'from_currency', 'to_currency', 'rate_date'])
    .addCheckConstraint('exchange_rate_two_currencies', sql`from_currency <> to_currency`)
    .execute();

  await sql`alter table billing_header add column local_currency_code text, add column local_total_amount numeric(18,4)`.execute(db);
  await sql`update billing_header set local_currency_code = currency_code, local_total_amount = total_amount`.execute(db);
  await sql`alter table billing_header alter column local_currency_code set not null, alter column local_total_amount set not null, alter column local_total_amount set default 0`.execute(db);
  await sql`alter table billing_line add column local_amount numeric(18,4)`.execute(db);
  await sql`update billing_line set local_amount = amount`.execute(db);
  await sql`alter table billing_line alter column local_amount set not null`.execute(db);

  await grantConfiguratorAccess(db, ['exchange_rate'], 'write');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table billing_line drop column local_amount`.execute(db);
  await sql`alter table billing_header drop column local_currency_code, drop column local_total_amount`.execute(db);
  await db.schema.dropTable('exchange_rate').execute();
}
