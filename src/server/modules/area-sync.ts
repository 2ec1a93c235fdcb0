import { sql, type Kysely } from 'kysely';
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
 * Records the areas this database has not installed yet and gives the seeded roles their default
 * grants (the manifests' `defaultGrants`), once per area: at the first start that finds the area
 * in the module list. A role renamed or deleted since is skipped; a page right the role already
 * holds a row for is left as it is. Runs after `syncRightVerbs`, so the verbs exist.
 */
export async function installAreas(db: Kysely<DB>, areas: AreaRegistry): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('area_installation'))`.execute(trx);
    const installed = new Set((await trx.selectFrom('area_installation').select('area').execute()).map((row) => row.area));
    const added: string[] = [];
    for (const module of areas.modules) {
      if (installed.has(module.name)) continue;
      for (const grant of module.defaultGrants ?? []) {
        const role = await trx.selectFrom('role').select('id').where(sql<boolean>`lower(name) = lower(${grant.role})`).executeTakeFirst();
        if (!role) continue;
        const pageRights = new Map<string, { module_code: string; sub_module_code: string | null; actions: Set<string> }>();
        for (const right of grant.rights) {
          const parsed = parseRightName(right)!;
          if (!isRightAction(parsed.action)) {
            await trx
              .insertInto('role_verb')
              .values({ role_id: role.id, right_code: right, created_by: 'system', updated_by: 'system' })
              .onConflict((oc) => oc.columns(['role_id', 'right_code']).doNothing())
              .execute();
            continue;
          }
          const key = `${parsed.module}.${parsed.subModule ?? ''}`;
          const entry = pageRights.get(key) ?? { module_code: parsed.module, sub_module_code: parsed.subModule, actions: new Set<string>() };
          entry.actions.add(parsed.action);
          pageRights.set(key, entry);
        }
        for (const { module_code, sub_module_code, actions } of pageRights.values()) {
          let existing = trx.selectFrom('role_permission').select('id').where('role_id', '=', role.id).where('module_code', '=', module_code);
          existing = sub_module_code === null ? existing.where('sub_module_code', 'is', null) : existing.where('sub_module_code', '=', sub_module_code);
          if (await existing.executeTakeFirst()) continue;
          await trx
            .insertInto('role_permission')
            .values({
              role_id: role.id,
              module_code,
              sub_module_code,
              can_view: actions.has('view'),
              can_add: actions.has('add'),
              can_edit: actions.has('edit'),
              can_delete: actions.has('delete'),
            })
            .execute();
        }
      }
      await trx.insertInto('area_installation').values({ area: module.name }).execute();
      added.push(module.name);
    }
    return added;
  });
}
