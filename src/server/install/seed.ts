import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AreaModule } from '../area-kit/area.js';
import { AreaRegistry } from '../area-kit/area-registry.js';
import { inTransaction } from '../db/transaction.js';

export interface SeedResult {
  /** False when the database already had its organization: nothing was written. */
  seeded: boolean;
  /** The administrator's password when it was generated here; shown once, never stored in clear. */
  generatedAdminPassword?: string;
}

export const SEED = {
  organization: { code: 'ORG1', name: 'Main organization' },
  project: { code: 'PRJ1', name: 'Main project' },
  warehouse: { code: 'WH1', name: 'Main warehouse' },
  admin: { login_account: 'admin', display_name: 'Administrator' },
} as const;

/**
 * First start on an empty database: one organization, project, warehouse and the administrator,
 * whose password is hashed by the area that keeps passwords (it contributes `passwords`).
 */
export async function seedFirstStart(db: Kysely<DB>, adminPassword: string | undefined, modules: readonly AreaModule[]): Promise<SeedResult> {
  const passwords = new AreaRegistry(modules).passwords;
  if (!passwords) throw new Error('no area keeps passwords: the administrator cannot be seeded');
  const generated = adminPassword ? undefined : passwords.generatePassword();
  const passwordHash = await passwords.hashPassword(adminPassword ?? generated!);
  return inTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('organization').select('id').limit(1).executeTakeFirst();
    if (existing) return { seeded: false };
    const by = 'system';
    const org = await trx
      .insertInto('organization')
      .values({ ...SEED.organization, created_by: by, updated_by: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    const project = await trx
      .insertInto('project')
      .values({ ...SEED.project, organization_id: org.id, created_by: by, updated_by: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    const warehouse = await trx
      .insertInto('warehouse')
      .values({ ...SEED.warehouse, organization_id: org.id, nav_layout: null, created_by: by, updated_by: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: warehouse.id }).execute();
    const admin = await trx
      .insertInto('app_user')
      .values({ ...SEED.admin, password_hash: passwordHash, is_admin: true, created_by: by, updated_by: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The administrator's grants give its session a current project and warehouse.
    await trx.insertInto('user_organization').values({ user_id: admin.id, organization_id: org.id }).execute();
    await trx.insertInto('user_project').values({ user_id: admin.id, project_id: project.id }).execute();
    await trx.insertInto('user_warehouse').values({ user_id: admin.id, warehouse_id: warehouse.id }).execute();
    return generated ? { seeded: true, generatedAdminPassword: generated } : { seeded: true };
  });
}
