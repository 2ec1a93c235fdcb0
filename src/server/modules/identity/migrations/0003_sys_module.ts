import { sql, type Kysely } from 'kysely';

/**
 * Migrations are history: these are the rows first inserted. Since then the menu follows the route
 * declaration of src/common/page-routes.ts, which src/server/install/sync-menu.ts applies at every start.
 *
 * The modules of the /page shell (the route table), grouped for the menu. A child's
 * code is its route without the slash; a group has no route. Titles are locale keys `menu.<code>`.
 * `right_name` is the right an entry needs to be seen (`<right_name>:view`): by default the
 * entry's own code (`asn:view`), and for a screen built from a shipped page definition the
 * engine's right of that page, `<moduleCode>.<functionCode>`, so that a role granting the whole
 * module (`masterdata`) or only the sub-module (`masterdata` / `sku`) decides both the menu and
 * the page's calls (per-module and per-sub-module rights).
 */
const GROUPS: Array<[group: string, children: string[]]> = [
  ['homeGroup', ['home', 'blankHome']],
  ['genericGroup', ['generic', 'mapTo', 'mult', 'menu', 'sysModule', 'noneEditable']],
  [
    'masterData',
    ['sku', 'skuHeader', 'whs', 'loa', 'ogr', 'project', 'proj_ge', 'partner', 'sysparam', 'codeMaster', 'idGener', 'invCode', 'rfUser', 'importConfig', 'support'],
  ],
  ['inbound', ['po', 'asn', 'asnStatic', 'inbGr', 'receive', 'putaway']],
  [
    'outbound',
    ['so', 'pso', 'shipmentOrder', 'wave', 'pick', 'pack', 'cmg', 'ediLogSummary', 'consignment', 'pallet', 'shipment', 'deliveryOrderSum', 'scanToPrintWindow'],
  ],
  [
    'inventory',
    ['balance', 'stdBalanceReport', 'transaction', 'transactionNew', 'enquiryLot', 'enquiryUser', 'enquirySku', 'enquiryLoc', 'lnvnMove', 'invAdjust', 'invTransfer', 'invHold', 'cycleCount', 'cycleCountMaster'],
  ],
  ['billingJobs', ['billingMaintance', 'job', 'timer']],
  ['reports', ['userReport', 'userGeneric']],
  ['setup', ['user', 'role', 'all_rule']],
  ['transport', ['vehicle', 'driver', 'tmsOrder', 'doOrders']],
];

/** Screens served by a shipped definition in `definitions/<module>/<function>.page.json`. */
const DEFINITION_MODULES: Record<string, string[]> = {
  masterdata: ['sku', 'whs', 'loa', 'ogr', 'project', 'partner', 'sysparam', 'mult', 'codeMaster', 'menu', 'sysModule', 'idGener', 'invCode', 'rfUser'],
  setup: ['user', 'role', 'all_rule'],
  transport: ['vehicle', 'driver'],
};

function rightNameOf(code: string): string | null {
  const module = Object.keys(DEFINITION_MODULES).find((m) => DEFINITION_MODULES[m].includes(code));
  return module ? `${module}.${code}` : null;
}

interface ModuleRow {
  code: string;
  parent_code: string | null;
  title_key: string;
  route: string | null;
  right_name: string | null;
  sequence: number;
  created_by: string;
  updated_by: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const rows: ModuleRow[] = [];
  GROUPS.forEach(([group, children], g) => {
    const base = { created_by: 'system', updated_by: 'system' };
    rows.push({ code: group, parent_code: null, title_key: `menu.${group}`, route: null, right_name: null, sequence: (g + 1) * 100, ...base });
    children.forEach((code, c) =>
      rows.push({
        code,
        parent_code: group,
        title_key: `menu.${code}`,
        route: `/${code}`,
        right_name: rightNameOf(code),
        sequence: (g + 1) * 100 + c + 1,
        ...base,
      }),
    );
  });
  await sql`alter table sys_module add column right_name text`.execute(db);
  const kdb = db as Kysely<{ sys_module: ModuleRow }>;
  // Groups first: children reference their parent's code.
  await kdb.insertInto('sys_module').values(rows.filter((r) => r.parent_code === null)).execute();
  await kdb.insertInto('sys_module').values(rows.filter((r) => r.parent_code !== null)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ sys_module: ModuleRow }>).deleteFrom('sys_module').execute();
  await sql`alter table sys_module drop column right_name`.execute(db);
}
