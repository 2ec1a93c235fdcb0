import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PalletStatus } from './packing.tables.js';

/**
 * What loading reads of cartons and pallets: a carton by its number or SSCC, a pallet by its SSCC or
 * number with its cartons, the cartons of orders, and what each carton holds at which balance key
 * (the carton's number is the licence plate its stock stands on, at the place it was picked to).
 * Always within one project and warehouse.
 */

type Db = Kysely<DB> | Transaction<DB>;

interface Scope {
  projectId: number;
  warehouseId: number;
}

export interface LoadableCarton {
  id: number;
  cartonNo: string;
  sscc: string | null;
  status: 'open' | 'closed';
  soId: number;
  palletId: number | null;
  palletNo: string | null;
  /** What the carton holds, in base units. */
  qty: string;
}

export interface CartonContent {
  cartonId: number;
  cartonNo: string;
  soLineId: number;
  ownerId: number;
  skuId: number;
  lotId: number;
  locationId: number;
  qty: string;
}

function cartonQuery(db: Db, scope: Scope) {
  return db
    .selectFrom('carton as c')
    .leftJoin('pallet as p', 'p.id', 'c.pallet_id')
    .select(['c.id', 'c.carton_no', 'c.sscc', 'c.status', 'c.so_id', 'c.pallet_id', 'p.pallet_no'])
    .select(sql<string>`coalesce((select sum(cl.qty) from carton_line cl where cl.carton_id = c.id), 0)`.as('qty'))
    .where('c.project_id', '=', scope.projectId)
    .where('c.warehouse_id', '=', scope.warehouseId);
}

type CartonQueryRow = Awaited<ReturnType<ReturnType<typeof cartonQuery>['execute']>>[number];

function toCarton(row: CartonQueryRow): LoadableCarton {
  return {
    id: Number(row.id),
    cartonNo: row.carton_no,
    sscc: row.sscc,
    status: row.status,
    soId: Number(row.so_id),
    palletId: row.pallet_id === null ? null : Number(row.pallet_id),
    palletNo: row.pallet_no ?? null,
    qty: String(row.qty),
  };
}

/** The carton of the scope whose number or SSCC is the code, or undefined. */
export async function cartonForLoading(db: Db, scope: Scope, code: string): Promise<LoadableCarton | undefined> {
  const row = await cartonQuery(db, scope)
    .where((eb) => eb.or([eb('c.carton_no', '=', code), eb('c.sscc', '=', code)]))
    .orderBy('c.id')
    .executeTakeFirst();
  return row ? toCarton(row) : undefined;
}

/** The cartons of the scope whose number or SSCC is one of the codes, by that code (both keys when both are among the codes). */
export async function cartonsForLoadingByCodes(db: Db, scope: Scope, codes: readonly string[]): Promise<Map<string, LoadableCarton>> {
  const found = new Map<string, LoadableCarton>();
  if (codes.length === 0) return found;
  const rows = await cartonQuery(db, scope)
    .where((eb) => eb.or([eb('c.carton_no', 'in', [...codes]), eb('c.sscc', 'in', [...codes])]))
    .orderBy('c.id')
    .execute();
  for (const row of rows) {
    const carton = toCarton(row);
    if (!found.has(carton.cartonNo)) found.set(carton.cartonNo, carton);
    if (carton.sscc !== null && !found.has(carton.sscc)) found.set(carton.sscc, carton);
  }
  return found;
}

/** The pallet of the scope whose SSCC or number is the code, with its status (open or closed) and its cartons; undefined when there is none. */
export async function palletForLoading(db: Db, scope: Scope, code: string): Promise<{ id: number; palletNo: string; sscc: string; status: PalletStatus; cartons: LoadableCarton[] } | undefined> {
  const pallet = await db
    .selectFrom('pallet')
    .select(['id', 'pallet_no', 'sscc', 'status'])
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .where((eb) => eb.or([eb('sscc', '=', code), eb('pallet_no', '=', code)]))
    .executeTakeFirst();
  if (!pallet) return undefined;
  const rows = await cartonQuery(db, scope).where('c.pallet_id', '=', pallet.id).orderBy('c.id').execute();
  return { id: Number(pallet.id), palletNo: pallet.pallet_no, sscc: pallet.sscc, status: pallet.status, cartons: rows.map(toCarton) };
}

/** The cartons of these orders in the scope, in the order they were opened. */
export async function cartonsOfOrdersForLoading(db: Db, scope: Scope, soIds: readonly number[]): Promise<LoadableCarton[]> {
  if (soIds.length === 0) return [];
  const rows = await cartonQuery(db, scope).where('c.so_id', 'in', [...soIds]).orderBy('c.id').execute();
  return rows.map(toCarton);
}

/** The cartons of the scope with these ids. */
export async function cartonsByIdForLoading(db: Db, scope: Scope, ids: readonly number[]): Promise<LoadableCarton[]> {
  if (ids.length === 0) return [];
  const rows = await cartonQuery(db, scope).where('c.id', 'in', [...ids]).orderBy('c.id').execute();
  return rows.map(toCarton);
}

/** What these cartons hold: per carton line, the order line, the balance key its stock stands on (the place it was picked to, the carton's number as licence plate) and the qty. */
export async function contentsOfCartons(db: Db, cartonIds: readonly number[]): Promise<CartonContent[]> {
  if (cartonIds.length === 0) return [];
  const rows = await db
    .selectFrom('carton_line as cl')
    .innerJoin('carton as c', 'c.id', 'cl.carton_id')
    .select(['cl.carton_id', 'c.carton_no', 'cl.so_line_id', 'cl.owner_id', 'cl.sku_id', 'cl.lot_id', 'cl.from_location_id', 'cl.qty'])
    .where('cl.carton_id', 'in', [...cartonIds])
    .orderBy('cl.carton_id')
    .orderBy('cl.id')
    .execute();
  return rows.map((r) => ({
    cartonId: Number(r.carton_id),
    cartonNo: r.carton_no,
    soLineId: Number(r.so_line_id),
    ownerId: Number(r.owner_id),
    skuId: Number(r.sku_id),
    lotId: Number(r.lot_id),
    locationId: Number(r.from_location_id),
    qty: String(r.qty),
  }));
}
