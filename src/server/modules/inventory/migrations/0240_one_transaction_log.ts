import { sql, type Kysely } from 'kysely';

/**
 * The transaction log has one screen, the `transaction` route. The shipped page `transactionNew`
 * (the ledger of the last configured days as an engine list) is no longer shipped: the start-up
 * sync adds versions of the files it finds and never removes a stored one, so its published shipped
 * version is retired here (kept as inactive history), and its menu entry, which the menu sync only
 * reports once undeclared, is removed and the entries after it move up one place. A project's own published copy, if any, is left to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update page_definition set status = 'inactive', updated_at = now(), updated_by = 'system'
     where project_id is null and module_code = 'inventory' and function_code = 'transactionNew' and status = 'published'`.execute(db);
  // The entries listed after it in its group move up one place, as the route table now numbers them.
  await sql`
    update sys_module m set sequence = m.sequence - 1
      from sys_module t
     where t.code = 'transactionNew' and t.created_by = 'system'
       and m.parent_code = t.parent_code and m.created_by = 'system' and m.sequence > t.sequence`.execute(db);
  await sql`delete from sys_module where code = 'transactionNew' and created_by = 'system'`.execute(db);
}
