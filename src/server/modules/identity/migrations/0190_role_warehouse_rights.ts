import { sql, type Kysely } from 'kysely';
import { findRoleId, grantRoleVerbs } from '../../../db/migrations/helpers.js';

/**
 * The seeded roles (migration 0052) get the warehouse areas that came after them: inbound,
 * inventory, outbound and jobs, with the verbs that go with each job on the floor. A supervisor
 * approves; an operator receives, puts away, moves and counts but approves nothing. Rights an
 * administrator has changed since are left alone (a row that exists is not touched).
 */
type Grant = 'view' | 'edit' | 'all';

const MODULES: Record<string, Partial<Record<'inbound' | 'inventory' | 'outbound' | 'job', Grant>>> = {
  Administrator: { inbound: 'all', inventory: 'all', outbound: 'all', job: 'all' },
  Supervisor: { inbound: 'all', inventory: 'all', outbound: 'all', job: 'all' },
  Operator: { inbound: 'edit', inventory: 'edit', outbound: 'edit' },
  Configurator: { inbound: 'view', inventory: 'view', outbound: 'view', job: 'view' },
  'Read-only': { inbound: 'view', inventory: 'view', outbound: 'view', job: 'view' },
};

const OPERATOR_VERBS = ['inbound.asn:receive', 'inbound.putaway:confirm', 'inventory.move:confirm', 'inventory.hold:confirm', 'inventory.count:create'];
const SUPERVISOR_VERBS = [
  ...OPERATOR_VERBS,
  'inbound.asn:cancel',
  'outbound.so:allocate',
  'outbound.so:cancel',
  'outbound.so:close',
  'inbound.asn:close',
  'inventory.adjust:confirm',
  'inventory.adjust:approve',
  'inventory.move:approve',
  'inventory.transfer:confirm',
  'inventory.transfer:approve',
  'inventory.hold:approve',
  'inventory.hold:release',
  'inventory.count:approve',
  'job.job:activate',
  'job.job:inactivate',
  'job.job:run',
  'job.timer:activate',
  'job.timer:inactivate',
  'job.timer:run',
];
const VERBS: Record<string, string[]> = { Administrator: SUPERVISOR_VERBS, Supervisor: SUPERVISOR_VERBS, Operator: OPERATOR_VERBS };

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, modules] of Object.entries(MODULES)) {
    const roleId = await findRoleId(db, name);
    if (roleId === undefined) continue;
    for (const [module, grant] of Object.entries(modules)) {
      const edit = grant !== 'view';
      await sql`
        insert into role_permission (role_id, module_code, sub_module_code, can_view, can_add, can_edit, can_delete)
        select ${roleId}, ${module}, null, true, ${edit}, ${edit}, ${grant === 'all'}
        where not exists (select 1 from role_permission where role_id = ${roleId} and module_code = ${module} and sub_module_code is null)
      `.execute(db);
    }
    await grantRoleVerbs(db, roleId, VERBS[name] ?? []);
  }
}
