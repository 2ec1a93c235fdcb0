import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { RouteTable } from '../../common/page-routes.js';
import type { DB } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';

export interface MenuSyncReport {
  /** Codes of the menu rows added. */
  inserted: string[];
  /** Codes of the menu rows whose parent, title, route, right or order changed. */
  updated: string[];
  /** Rows written by the system that the declaration no longer has: left in place, see below. */
  undeclared: string[];
}

/** The columns of a menu row the declaration decides; `enabled` is the administrator's. */
const FIELDS = ['parent_code', 'title_key', 'route', 'right_name', 'sequence'] as const;

type MenuRow = Pick<Selectable<DB['sys_module']>, 'code' | (typeof FIELDS)[number]>;

/** The `sys_module` rows the route table (the kernel's and the areas' routes, merged) asks for, groups first. */
export function declaredMenuRows(table: RouteTable): MenuRow[] {
  return [
    ...table.groups.map((g) => ({ code: g.code, parent_code: null, title_key: g.titleKey, route: null, right_name: null, sequence: g.sequence })),
    ...table.routes.map((r) => ({ code: r.route, parent_code: r.group, title_key: r.titleKey, route: `/${r.route}`, right_name: r.rightName, sequence: r.sequence })),
  ];
}

/**
 * Makes the menu (`sys_module`, created by migration 0003) match the route table at start,
 * as shipped definitions are synced: a missing row is added, a row whose parent, title, route,
 * right or order differs is updated, an equal row is not written. `enabled` is the administrator's
 * and is never changed. Rows the declaration does not name are never deleted: roles' rights name
 * them by code and pages published by the designer add their own entries; system rows dropped from
 * the declaration are only reported. One transaction, serialized between nodes starting together.
 */
export async function syncMenuAtStart(db: Kysely<DB>, table: RouteTable, log?: FastifyBaseLogger): Promise<MenuSyncReport> {
  const report: MenuSyncReport = { inserted: [], updated: [], undeclared: [] };
  const wanted = declaredMenuRows(table);
  await inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('sys_module:menu-sync'))`.execute(trx);
    const existing = new Map(
      (await trx.selectFrom('sys_module').select(['id', 'code', 'created_by', ...FIELDS]).execute()).map((row) => [row.code, row]),
    );
    // In declaration order, groups before their entries: an entry's parent must exist.
    for (const row of wanted) {
      const current = existing.get(row.code);
      if (!current) {
        await trx
          .insertInto('sys_module')
          .values({ ...row, created_by: 'system', updated_by: 'system' })
          .execute();
        report.inserted.push(row.code);
      } else if (FIELDS.some((field) => current[field] !== row[field])) {
        await trx
          .updateTable('sys_module')
          .set({ ...row, updated_at: sql`now()`, updated_by: 'system' })
          .where('id', '=', current.id)
          .execute();
        report.updated.push(row.code);
      }
    }
    const declared = new Set(wanted.map((row) => row.code));
    report.undeclared = [...existing.values()].filter((row) => row.created_by === 'system' && !declared.has(row.code)).map((row) => row.code);
  });
  if (report.inserted.length || report.updated.length) log?.info({ inserted: report.inserted.length, updated: report.updated.length }, 'menu synced with the route table');
  if (report.undeclared.length) log?.warn({ codes: report.undeclared }, 'menu rows no area declares any more are kept');
  return report;
}
