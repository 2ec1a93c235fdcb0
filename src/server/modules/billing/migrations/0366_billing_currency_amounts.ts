import { sql, type Kysely } from 'kysely';

/**
 * Bill amounts in the decimals of their currency: the amount columns of bills and bill lines are
 * numeric without a fixed scale, so that a stored amount keeps the decimals the run rounded it to
 * (JPY 14912, USD 250.00, KWD 12.345) and every reader (the bill page, the invoice, the lines
 * export) shows it so. Amounts written before are rounded half-up to their currency's decimals.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await amountsInCurrencyDecimals(db);
}

async function hasColumn(db: Kysely<unknown>, table: string, column: string): Promise<boolean> {
  const found = await sql<{ n: number }>`select 1 as n from information_schema.columns where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(db);
  return found.rows.length > 0;
}

/** Makes the amount columns that exist scale-free and rounds their values to the currency's decimals; does nothing twice. */
export async function amountsInCurrencyDecimals(db: Kysely<unknown>): Promise<void> {
  if (await hasColumn(db, 'billing_line', 'amount')) {
    await sql`alter table billing_line alter column amount type numeric`.execute(db);
    await sql`update billing_line l set amount = round(l.amount, c.decimals) from currency c where c.code = l.currency_code and scale(l.amount) <> c.decimals`.execute(db);
  }
  if (await hasColumn(db, 'billing_header', 'total_amount')) {
    await sql`alter table billing_header alter column total_amount type numeric`.execute(db);
    await sql`update billing_header h set total_amount = round(h.total_amount, c.decimals) from currency c where c.code = h.currency_code and scale(h.total_amount) <> c.decimals`.execute(db);
  }
  if (await hasColumn(db, 'billing_line', 'local_amount')) {
    await sql`alter table billing_line alter column local_amount type numeric`.execute(db);
    await sql`update billing_line l set local_amount = round(l.local_amount, c.decimals) from billing_header h, currency c where h.id = l.header_id and c.code = h.local_currency_code and scale(l.local_amount) <> c.decimals`.execute(db);
  }
  if (await hasColumn(db, 'billing_header', 'local_total_amount')) {
    await sql`alter table billing_header alter column local_total_amount type numeric`.execute(db);
    await sql`update billing_header h set local_total_amount = round(h.local_total_amount, c.decimals) from currency c where c.code = h.local_currency_code and scale(h.local_total_amount) <> c.decimals`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (await hasColumn(db, 'billing_line', 'amount')) await sql`alter table billing_line alter column amount type numeric(18,4)`.execute(db);
  if (await hasColumn(db, 'billing_header', 'total_amount')) await sql`alter table billing_header alter column total_amount type numeric(18,4)`.execute(db);
  if (await hasColumn(db, 'billing_line', 'local_amount')) await sql`alter table billing_line alter column local_amount type numeric(18,4)`.execute(db);
  if (await hasColumn(db, 'billing_header', 'local_total_amount')) await sql`alter table billing_header alter column local_total_amount type numeric(18,4)`.execute(db);
}
