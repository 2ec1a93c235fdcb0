import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { lockInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';
import type { ContainerCarton } from '../../../common/inbound-api.js';
import type { Scope } from './inbound.common.js';
import type { AsnCartonTable, CartonStatus } from './inbound.tables.js';

/** SQL of the cartons announced on ASN lines for scan-in, by container. */

export type CartonRow = Selectable<AsnCartonTable>;

export async function insertCartons(trx: Transaction<DB>, values: Insertable<AsnCartonTable>[]): Promise<void> {
  if (values.length > 0) await trx.insertInto('asn_carton').values(values).execute();
}

export async function cartonsOfContainer(db: Kysely<DB>, scope: Scope, containerId: string): Promise<ContainerCarton[]> {
  return db
    .selectFrom('asn_carton as c')
    .innerJoin('asn_line as l', 'l.id', 'c.asn_line_id')
    .innerJoin('sku as s', 's.id', 'l.sku_id')
    .innerJoin('asn as a', 'a.id', 'c.asn_id')
    .select(['c.id', 'c.asn_id', 'a.asn_no', 'c.asn_line_id', 'c.container_id', 'c.carton_id', 'c.qty', 'c.status', 'c.epc', 'c.carton_type', 'c.anti_counterfeit_code', 's.code as sku_code', 's.description as sku_description', 'l.uom'])
    .where('c.project_id', '=', scope.projectId)
    .where('c.warehouse_id', '=', scope.warehouseId)
    .where('c.container_id', '=', containerId)
    .orderBy('c.carton_id')
    .execute();
}

export async function lockCarton(trx: Transaction<DB>, scope: Scope, cartonId: string): Promise<CartonRow | undefined> {
  return lockInScope(trx, 'asn_carton', scope, { column: 'carton_id', value: cartonId });
}

export async function lockCartonsOfContainer(trx: Transaction<DB>, scope: Scope, containerId: string, statuses: readonly CartonStatus[]): Promise<CartonRow[]> {
  return trx
    .selectFrom('asn_carton')
    .selectAll()
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where('container_id', '=', containerId)
    .where('status', 'in', [...statuses])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function setCartonStatus(trx: Transaction<DB>, ids: readonly number[], status: CartonStatus, by: string, receiptLineId?: number): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('asn_carton')
    .set({ status, updated_at: new Date(), updated_by: by, ...(receiptLineId !== undefined ? { receipt_line_id: receiptLineId } : {}) })
    .where('id', 'in', [...ids])
    .execute();
}

export async function deleteCartons(trx: Transaction<DB>, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx.deleteFrom('asn_carton').where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The ASN lines (of those given) whose item is a gift. The gift flag is the SKU's; an ASN line's own
 * flag stays as an override, marking a delivery of an item otherwise sold as a gift this once.
 */
export async function giftLines(db: Kysely<DB>, asnLineIds: readonly number[]): Promise<Set<number>> {
  if (asnLineIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('asn_line as l')
    .innerJoin('sku as s', 's.id', 'l.sku_id')
    .select('l.id')
    .where('l.id', 'in', [...asnLineIds])
    .where((eb) => eb.or([eb('l.gift', '=', true), eb('s.gift', '=', true)]))
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function recordCartonScan(trx: Transaction<DB>, id: number, values: { epc: string; carton_type: string; anti_counterfeit_code: string | null }): Promise<void> {
  await trx.updateTable('asn_carton').set(values).where('id', '=', id).execute();
}

/** An ASN line's expected quantity and what its other cartons (all but `exceptCartonId`) already hold; undefined when the line is not the ASN's. */
export async function lineCartonRoom(trx: Transaction<DB>, asnId: number, asnLineId: number, exceptCartonId: number | null) {
  const { rows } = await sql<{ expected_qty: string; others: string | null }>`
    select l.expected_qty, (select sum(c.qty) from asn_carton c where c.asn_line_id = l.id and c.id <> ${exceptCartonId ?? 0}) as others
    from asn_line l where l.id = ${asnLineId} and l.asn_id = ${asnId}`.execute(trx);
  return rows[0];
}
