import { sql, type Kysely } from 'kysely';

/**
 * The inventory screens now open shipped page definitions: their menu entries need the engine's
 * right of their page (`inventory.<function>:view`), as src/common/page-routes.ts declares.
 */
const DEFINITION_ROUTES = [
  'balance',
  'transactionNew',
  'enquiryLot',
  'enquiryUser',
  'enquirySku',
  'enquiryLoc',
  'lnvnMove',
  'invAdjust',
  'invTransfer',
  'invHold',
  'cycleCount',
  'cycleCountMaster',
  'skuHeader',
  'noneEditable',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const code of DEFINITION_ROUTES) {
    await sql`update sys_module set right_name = ${`inventory.${code}`}, updated_at = now(), updated_by = 'system' where code = ${code}`.execute(db);
  }
}
