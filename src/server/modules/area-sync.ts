import { sql, type Kysely, type Transaction } from 'kysely';
import { isRightAction, parseRightName } from '../../common/rights.js';
import type { DB } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import type { AreaRegistry } from './area-registry.js';

/**
 * Makes the `right_verb` table match the verbs the areas declare (at start, after migrations):
 * new verbs are added, labels follow the code, and a verb no area declares any more goes, with
 * its grants.
 */
export async function syncRightVerbs(db: Kysely<DB>, areas: AreaRegistry): Promise<void> {
  const verbs = areas.rightVerbs();
  await inTransaction(db, async (trx) => {
    for (const { right, labelCode } of verbs) {
      const parsed = parseRightName(right)!;
      await trx
        .insertInto('right_verb')
        .values({ code: right, module_code: parsed.module, sub_module_code: parsed.subModule, verb: parsed.action, label_code: labelCode })
        .onConflict((oc) => oc.column('code').doUpdateSet({ label_code: labelCode }))
        .execute();
    }
    let stale = trx.deleteFrom('right_verb');
    if (verbs.length) stale = stale.where('code', 'not in', verbs.map((v) => v.right));
    await stale.execute();
  });
}

/**
 * Gives the seeded roles the areas' default grants (the manifests' `defaultGrants`) and records the
 * areas this database has not installed yet. Each right is given to a role once and recorded in
 * `area_grant`, so that a right an administrator revokes later stays revoked, and a right an area
 * adds to its default grants in a later version still reaches a database installed before.
 *
 * - An area met for the first time: every default right is given (a page the role already holds a
 *   row for is left as it is).
 * - An area installed before: only its rights not yet recorded are given.
 * - An area installed before rights were recorded one by one: a right is given only when the role
 *   holds nothing on its page yet (a page the area added since); every right is then recorded.
 *
 * A role renamed or deleted since is skipped. Runs after `syncRightVerbs`, so the verbs exist.
 */
export async function installAreas(db: Kysely<DB>, areas: AreaRegistry): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('area_installation'))`.execute(trx);
    const installed = new Set((await trx.selectFrom('area_installation').select('area').execute()).map((row) => row.area));
    const recorded = new Set((await trx.selectFrom('area_grant').select(['area', 'role_name', 'right_code']).execute()).map((row) => `${row.area}|${row.role_name}|${row.right_code}`));
    const recordedAreas = new Set([...recorded].map((key) => key.split('|')[0]));
    const added: string[] = [];
    for (const module of areas.modules) {
      const firstInstall = !installed.has(module.name);
      const unrecorded = !firstInstall && !recordedAreas.has(module.name);
      for (const grant of module.defaultGrants ?? []) {
        const roleName = grant.role.toLowerCase();
        const rights = grant.rights.filter((right) => !recorded.has(`${module.name}|${roleName}|${right}`));
        // At an ordinary start every right is recorded already: nothing more is read.
        if (!rights.length) continue;
        const role = await trx.selectFrom('role').select('id').where(sql<boolean>`lower(name) = lower(${grant.role})`).executeTakeFirst();
        if (!role) continue;
        const held = await pagesHeld(trx, role.id);
        for (const right of rights) {
          const parsed = parseRightName(right)!;
          const page = pageKey(parsed.module, parsed.subModule);
          const verb = !isRightAction(parsed.action);
          // A verb belongs to its page (`module.sub`), or to the module's own page when the area has one.
          const heldBefore = held.any.has(page) || (verb && held.any.has(pageKey(parsed.module, null)));
          const leave = (firstInstall && !verb && held.rows.has(page)) || (unrecorded && heldBefore);
          if (!leave) await giveRight(trx, role.id, right);
          await trx.insertInto('area_grant').values({ area: module.name, role_name: roleName, right_code: right }).onConflict((oc) => oc.doNothing()).execute();
          recorded.add(`${module.name}|${roleName}|${right}`);
        }
      }
      if (firstInstall) {
        await trx.insertInto('area_installation').values({ area: module.name }).execute();
        added.push(module.name);
      }
    }
    return added;
  });
}

function pageKey(module: string, subModule: string | null): string {
  return `${module}.${subModule ?? ''}`;
}

/** The pages (module and sub-module) a role holds a page row for, and those it holds any page right or verb on. */
async function pagesHeld(trx: Transaction<DB>, roleId: number): Promise<{ rows: Set<string>; any: Set<string> }> {
  const rows = new Set<string>();
  for (const row of await trx.selectFrom('role_permission').select(['module_code', 'sub_module_code']).where('role_id', '=', roleId).execute()) {
    rows.add(pageKey(row.module_code, row.sub_module_code));
  }
  const any = new Set(rows);
  for (const row of await trx.selectFrom('role_verb').select('right_code').where('role_id', '=', roleId).execute()) {
    const parsed = parseRightName(row.right_code);
    if (parsed) any.add(pageKey(parsed.module, parsed.subModule));
  }
  return { rows, any };
}

/** Gives one right to a role: a verb as its `role_verb` row, a page action as its flag on the role's row for the page. */
async function giveRight(trx: Transaction<DB>, roleId: number, right: string): Promise<void> {
  const parsed = parseRightName(right)!;
  if (!isRightAction(parsed.action)) {
    await trx
      .insertInto('role_verb')
      .values({ role_id: roleId, right_code: right, created_by: 'system', updated_by: 'system' })
      .onConflict((oc) => oc.columns(['role_id', 'right_code']).doNothing())
      .execute();
    return;
  }
  const flag = `can_${parsed.action}` as const;
  let existing = trx.selectFrom('role_permission').select('id').where('role_id', '=', roleId).where('module_code', '=', parsed.module);
  existing = parsed.subModule === null ? existing.where('sub_module_code', 'is', null) : existing.where('sub_module_code', '=', parsed.subModule);
  const row = await existing.executeTakeFirst();
  if (row) {
    await trx.updateTable('role_permission').set({ [flag]: true }).where('id', '=', row.id).execute();
    return;
  }
  await trx
    .insertInto('role_permission')
    .values({ role_id: roleId, module_code: parsed.module, sub_module_code: parsed.subModule, can_view: false, can_add: false, can_edit: false, can_delete: false, [flag]: true })
    .execute();
}
