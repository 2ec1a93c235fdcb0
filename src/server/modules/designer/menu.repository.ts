import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The route of a published generic page's menu entry: the generic host opens the module's page. */
export function genericPageRoute(moduleCode: string, functionCode: string): string {
  return `/mapTo?moduleCode=${encodeURIComponent(moduleCode)}&functionCode=${encodeURIComponent(functionCode)}`;
}

export async function findModuleEntry(db: Kysely<DB>, code: string) {
  return db.selectFrom('sys_module').select(['id', 'code', 'parent_code', 'route', 'title_key', 'sequence']).where('code', '=', code).executeTakeFirst();
}

/**
 * Inserts or updates the menu entry of a module's generic page in `sys_module` (the table the
 * menu and the module rights read), so that users holding `<moduleCode>:view` see it at once.
 */
export async function upsertGenericMenuEntry(
  db: Kysely<DB>,
  entry: { code: string; parentCode: string; titleKey: string; route: string; sequence: number | undefined; by: string },
): Promise<void> {
  const existing = await findModuleEntry(db, entry.code);
  if (existing) {
    await db
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
      .where('id', '=', existing.id)
      .execute();
    return;
  }
  let sequence = entry.sequence;
  if (sequence === undefined) {
    const max = await db
      .selectFrom('sys_module')
      .select((eb) => eb.fn.max('sequence').as('max'))
      .where('parent_code', '=', entry.parentCode)
      .executeTakeFirst();
    sequence = Number(max?.max ?? 0) + 1;
  }
  await db
    .insertInto('sys_module')
    .values({
      code: entry.code,
      parent_code: entry.parentCode,
      title_key: entry.titleKey,
      route: entry.route,
      sequence,
      created_by: entry.by,
      updated_by: entry.by,
    })
    .execute();
}

/** The menu's groups (entries without a route), in menu order. */
export async function findMenuGroups(db: Kysely<DB>) {
  return db.selectFrom('sys_module').select(['code', 'title_key']).where('route', 'is', null).orderBy('sequence').execute();
}
