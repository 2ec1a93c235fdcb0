import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { GenerateLocationsInput, PlannedLocation } from './location-generator.service.js';
import type { LocationType } from './masterdata.tables.js';

/** The master-data area's SQL (locations, numbering rules); the services hold the rules. */

export async function warehouseExists(trx: Transaction<DB>, warehouseId: number): Promise<boolean> {
  return (await trx.selectFrom('warehouse').select('id').where('id', '=', warehouseId).executeTakeFirst()) !== undefined;
}

export async function findWarehouseTimeZone(trx: Transaction<DB>, warehouseId: number): Promise<string | undefined> {
  return (await trx.selectFrom('warehouse').select('time_zone').where('id', '=', warehouseId).executeTakeFirst())?.time_zone;
}

/** Holds off another location generator of the same warehouse until this transaction ends. */
export async function lockLocationGeneration(trx: Transaction<DB>, warehouseId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('location.generate'), ${warehouseId}::int)`.execute(trx);
}

export async function highestPickSequence(trx: Transaction<DB>, warehouseId: number): Promise<number> {
  const { max_seq } = await trx
    .selectFrom('location')
    .select((eb) => eb.fn.coalesce(eb.fn.max('pick_seq'), sql<number>`0`).as('max_seq'))
    .where('warehouse_id', '=', warehouseId)
    .executeTakeFirstOrThrow();
  return Number(max_seq);
}

/** Adds a location unless the warehouse has one of that code; answers the id of the warehouse's location of that code. */
export async function insertLocationIfMissing(
  trx: Transaction<DB>,
  location: { warehouseId: number; code: string; description: string; locationType: LocationType; by: string },
): Promise<number> {
  await trx
    .insertInto('location')
    .values({
      warehouse_id: location.warehouseId,
      code: location.code,
      description: location.description,
      location_type: location.locationType,
      created_by: location.by,
      updated_by: location.by,
    })
    .onConflict((oc) => oc.constraint('location_warehouse_code_key').doNothing())
    .execute();
  const row = await trx.selectFrom('location').select('id').where('warehouse_id', '=', location.warehouseId).where('code', '=', location.code).executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Inserts planned locations (codes that exist are left alone); answers the codes created. */
export async function insertLocations(
  trx: Transaction<DB>,
  input: GenerateLocationsInput,
  chunk: PlannedLocation[],
  sequenceBase: number,
  actor: string,
): Promise<string[]> {
  const { rows } = await sql<{ code: string }>`
    insert into location (warehouse_id, code, location_type, zone, aisle, bay, level, position, pick_seq,
                          max_pallets, max_weight_kg, max_volume_cm3, created_by, updated_by)
    select ${input.warehouseId}::bigint, g.code, ${input.locationType ?? 'storage'}::text, ${input.zone ?? null}::text,
           g.aisle, g.bay, g.level, g.position, ${sequenceBase}::int + g.ord::int,
           ${input.maxPallets ?? null}::int, ${input.maxWeightKg || null}::numeric, ${input.maxVolumeCm3 || null}::numeric,
           ${actor}::text, ${actor}::text
    from unnest(${chunk.map((p) => p.code)}::text[], ${chunk.map((p) => p.aisle)}::text[], ${chunk.map((p) => p.bay)}::text[],
                ${chunk.map((p) => p.level)}::text[], ${chunk.map((p) => p.position)}::text[])
         with ordinality as g(code, aisle, bay, level, position, ord)
    on conflict (warehouse_id, code) do nothing
    returning code
  `.execute(trx);
  return rows.map((row) => row.code);
}

export async function findActiveIdRule(trx: Transaction<DB>, ruleCode: string) {
  return trx
    .selectFrom('id_rule')
    .select(['id', 'rule_code', 'prefix', 'date_pattern', 'sequence_length', 'reset_period', 'scope_level'])
    .where('rule_code', '=', ruleCode)
    .where('active', '=', true)
    .executeTakeFirst();
}

/** The next value of a numbering rule's counter for one scope and period, taken under the row's lock. */
export async function bumpIdCounter(trx: Transaction<DB>, ruleId: number, scopeId: number, period: string): Promise<number> {
  const { current_value } = await trx
    .insertInto('id_rule_counter')
    .values({ rule_id: ruleId, scope_id: scopeId, period_key: period, current_value: 1, created_by: 'system', updated_by: 'system' })
    .onConflict((oc) =>
      oc.columns(['rule_id', 'scope_id', 'period_key']).doUpdateSet({
        current_value: sql<number>`id_rule_counter.current_value + 1`,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning('current_value')
    .executeTakeFirstOrThrow();
  return current_value;
}

const TEXT_COLUMN = { en: 'text_en', zh: 'text_zh', zh_tw: 'text_zh_tw', kor: 'text_kor', th: 'text_th', jp: 'text_jp' } as const;

/** The multilingual texts (/mult) that have a text in this language, by text code. */
export async function multTextsIn(db: Kysely<DB>, language: keyof typeof TEXT_COLUMN): Promise<Record<string, string>> {
  const column = TEXT_COLUMN[language];
  const rows = await db.selectFrom('mult_text').select(['text_code', `${column} as text`]).where(column, 'is not', null).where(column, '<>', '').orderBy('text_code').limit(20000).execute();
  return Object.fromEntries(rows.map((row) => [row.text_code, String(row.text)]));
}
