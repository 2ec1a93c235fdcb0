import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The route of a published generic page's menu entry: the generic host opens the module's page. */
export function genericPageRoute(moduleCode: string, functionCode: string): string {
  return `/mapTo?moduleCode=${encodeURIComponent(moduleCode)}&functionCode=${encodeURIComponent(functionCode)}`;
}

export async function findModuleEntry(db: Kysely<DB>, code: string) {
  return db.selectFrom('sys_module').select(['id', 'code', 'parent_code', 'route', 'title_key', 'sequence']).where('code', '=', code).executeTakeFirst();
}

/** The menu's groups (entries without a route), in menu order. */
export async function findMenuGroups(db: Kysely<DB>) {
  return db.selectFrom('sys_module').select(['code', 'title_key']).where('route', 'is', null).orderBy('sequence').execute();
}
