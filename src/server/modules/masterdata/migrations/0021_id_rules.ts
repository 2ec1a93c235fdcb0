import type { Kysely } from 'kysely';

/**
 * The numbering rules every document number uses (/idGener). They are configuration the product
 * needs to work, not demonstration data, so they come with the schema; an administrator may change
 * prefix, pattern, length and reset on the page.
 */
const RULES: Array<[code: string, description: string, prefix: string, pattern: string, length: number, reset: string, scope: string]> = [
  ['ASN', 'Advance shipping notice', 'ASN', 'YYMMDD', 4, 'daily', 'warehouse'],
  ['PO', 'Purchase order', 'PO', 'YYMM', 5, 'monthly', 'project'],
  ['SO', 'Sales order', 'SO', 'YYMMDD', 5, 'daily', 'warehouse'],
  ['WAVE', 'Wave', 'WV', 'YYMMDD', 4, 'daily', 'warehouse'],
  ['PICK', 'Pick ticket', 'PK', 'YYMMDD', 5, 'daily', 'warehouse'],
  ['LOAD', 'Loading', 'LD', 'YYMMDD', 4, 'daily', 'warehouse'],
  ['CARTON', 'Carton', 'CT', 'YYMMDD', 6, 'daily', 'warehouse'],
  ['LPN', 'License plate number', 'LPN', '', 10, 'never', 'warehouse'],
  ['ADJ', 'Inventory adjustment', 'ADJ', 'YYMM', 5, 'monthly', 'warehouse'],
  ['MOVE', 'Inventory move', 'MV', 'YYMM', 5, 'monthly', 'warehouse'],
  ['TRF', 'Inventory transfer', 'TF', 'YYMM', 5, 'monthly', 'warehouse'],
  ['HOLD', 'Inventory hold', 'HD', 'YYMM', 5, 'monthly', 'warehouse'],
  ['CC', 'Cycle count', 'CC', 'YYMM', 5, 'monthly', 'warehouse'],
  ['BILL', 'Billing', 'BL', 'YYYYMM', 5, 'monthly', 'project'],
  ['TMSDO', 'Transport delivery order', 'DO', 'YYMMDD', 5, 'daily', 'warehouse'],
  ['ROUTE', 'Transport route', 'RT', 'YYMMDD', 4, 'daily', 'warehouse'],
  ['TICKET', 'Support ticket', 'TK', 'YYYY', 6, 'yearly', 'global'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ id_rule: Record<string, unknown> }>)
    .insertInto('id_rule')
    .values(
      RULES.map(([rule_code, description, prefix, date_pattern, sequence_length, reset_period, scope_level]) => ({
        rule_code,
        description,
        prefix,
        date_pattern,
        sequence_length,
        reset_period,
        scope_level,
        created_by: 'system',
        updated_by: 'system',
      })),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ id_rule: { rule_code: string } }>)
    .deleteFrom('id_rule')
    .where('rule_code', 'in', RULES.map(([code]) => code))
    .execute();
}
