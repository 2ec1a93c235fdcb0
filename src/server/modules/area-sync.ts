import type { Kysely } from 'kysely';
import { parseRightName } from '../../common/rights.js';
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
