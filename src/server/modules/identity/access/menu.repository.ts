import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';

/** The SQL of the menu entries (`sys_module`) an area puts in the menu while the application runs. */

export async function findMenuEntryId(trx: Transaction<DB>, code: string): Promise<number | undefined> {
  return (await trx.selectFrom('sys_module').select('id').where('code', '=', code).executeTakeFirst())?.id;
}

/** The sequence after the last entry of a menu group. */
export async function nextSequenceInGroup(trx: Transaction<DB>, parentCode: string): Promise<number> {
  const max = await trx
    .selectFrom('sys_module')
    .select((eb) => eb.fn.max('sequence').as('max'))
    .where('parent_code', '=', parentCode)
    .executeTakeFirst();
  return Number(max?.max ?? 0) + 1;
}

export async function updateMenuEntry(
  trx: Transaction<DB>,
  id: number,
  entry: { parentCode: string; titleKey: string; route: string; sequence: number | undefined; by: string },
): Promise<void> {
  await trx
    .updateTable('sys_module')
    .set({
      parent_code: entry.parentCode,
      title_key: entry.titleKey,
      route: entry.route,
      ...(entry.sequence === undefined ? {} : { sequence: entry.sequence }),
      enabled: true,
      updated_at: sql`now()`,
      updated_by: entry.by,
    })
    .where('id', '=', id)
    .execute();
}

export async function insertMenuEntry(
  trx: Transaction<DB>,
  entry: { code: string; parentCode: string; titleKey: string; route: string; sequence: number; by: string },
): Promise<void> {
  await trx
    .insertInto('sys_module')
    .values({
      code: entry.code,
      parent_code: entry.parentCode,
      title_key: entry.titleKey,
      route: entry.route,
      sequence: entry.sequence,
      created_by: entry.by,
      updated_by: entry.by,
    })
    .execute();
}
