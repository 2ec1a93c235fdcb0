import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The SQL of copying pages into a new project. */

export async function findProjectPageKeys(db: Kysely<DB>, projectId: number) {
  return db
    .selectFrom('page_definition')
    .select(['module_code', 'function_code'])
    .where((eb) => eb.or([eb('project_id', '=', projectId), eb('project_id', 'is', null)]))
    .distinct()
    .execute();
}

export async function findProjectOrganization(db: Kysely<DB>, projectId: number) {
  return db.selectFrom('project').select(['organization_id']).where('id', '=', projectId).executeTakeFirstOrThrow();
}

export async function findProjectByCode(db: Kysely<DB>, code: string) {
  return db.selectFrom('project').select('id').where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase())).executeTakeFirst();
}
