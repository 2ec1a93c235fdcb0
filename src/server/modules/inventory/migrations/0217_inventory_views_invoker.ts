import { sql, type Kysely } from 'kysely';

/**
 * The inventory views read their tables with the rights of whoever queries them, so the row
 * policies of balance, ledger, documents and counts hold for configurator SQL through them too
 * (a view otherwise reads as its owner, past every policy).
 */
const VIEWS = ['inventory_stock_report', 'inventory_sku_stock', 'inventory_transaction_log', 'count_variance', 'inventory_document_summary'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const view of VIEWS) await sql`alter view ${sql.id(view)} set (security_invoker = true)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const view of VIEWS) await sql`alter view ${sql.id(view)} reset (security_invoker)`.execute(db);
}
