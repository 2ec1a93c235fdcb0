import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { LoadCartonRow, LoadHeader, LoadOrderRow, ScanAnswer } from '../../../common/loading-api.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import { attachFiles, type UploadedFile } from '../attachment/index.js';
import { applyStockChanges, type StockChange, type StockScope } from '../inventory/index.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { findPackingOrder, orderNumbers, ordersOfWave, setLoadingStatus, type LoadingStatus, type PackingOrder } from '../outbound/index.js';
import { cartonForLoading, cartonsByIdForLoading, cartonsForLoadingByCodes, cartonsOfOrdersForLoading, contentsOfCartons, palletForLoading, type LoadableCarton } from '../packing/index.js';
import * as repo from './loading.repository.js';
import type { LoadFields, LoadRow } from './loading.repository.js';

/**
 * Loading and shipping. Closed cartons of packed orders go onto a load (by carton number, carton
 * SSCC, or a pallet's SSCC, which loads all its cartons); a carton is on one load only, a carton of
 * a cancelled order is refused, and an order is partially loaded while some of its cartons are on a
 * load and loaded once all are. Ship confirm of a load moves every carton's stock out of the
 * warehouse in one transaction (on-hand and picked fall together at the carton's licence plate),
 * its orders become shipped (partially shipped while some ordered qty has not gone), and the event
 * `loading.shipped` tells other areas. A shipped order is delivered with the time and the
 * receiver's name, and optionally a photo.
 */

declare module '../../events/events.js' {
  interface DomainEvents {
    /**
     * A load was shipped: its orders left the warehouse. `load` is what the load's header says of
     * the transport (for the ship notices), `cartonIds` the cartons that left on it.
     */
    'loading.shipped': {
      loadId: number;
      soIds: number[];
      projectId: number;
      warehouseId: number;
      load?: { loadNo: string; containerNo: string | null; sealNo: string | null; vessel: string | null; voyage: string | null; mbl: string | null; hbl: string | null };
      cartonIds?: number[];
    };
  }
}

const ZERO = new Decimal(0);
/** Order statuses whose cartons may go onto (or come off) a load. */
const LOADABLE = ['packed', 'partial_loaded', 'loaded'];
/** Order statuses a ship confirm takes: loaded, or partly shipped by an earlier load. */
const SHIPPABLE = ['loaded', 'partial_shipped'];

/** The attachment record a delivery photo belongs to. */
export const DELIVERY_RECORD = { moduleCode: 'loading', functionCode: 'delivery' } as const;

/** The header fields as the API names them, each with the column it is saved in. */
const FIELD_COLUMNS = {
  containerNo: 'container_no',
  sealNo: 'seal_no',
  containerType: 'container_type',
  vessel: 'vessel',
  voyage: 'voyage',
  mbl: 'mbl',
  hbl: 'hbl',
  driver: 'driver',
  etd: 'etd',
  eta: 'eta',
  portOfLoading: 'port_of_loading',
  portOfDischarge: 'port_of_discharge',
  portOfDestination: 'port_of_destination',
  loadFrom: 'load_from',
  loadTo: 'load_to',
  remarks: 'remarks',
} as const satisfies Record<string, keyof LoadFields>;

/** The header fields as the API names them. */
export type LoadInput = { [Name in keyof typeof FIELD_COLUMNS]?: string | null };

function columnsOf(input: LoadInput): LoadFields {
  const fields: LoadFields = {};
  for (const [name, column] of Object.entries(FIELD_COLUMNS) as Array<[keyof LoadInput, keyof LoadFields]>) {
    if (!(name in input)) continue;
    const value = input[name];
    fields[column] = typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  }
  return fields;
}

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

function headerOf(row: LoadRow, cartons: number): LoadHeader {
  return {
    id: Number(row.id),
    loadNo: row.load_no,
    status: row.status,
    containerNo: row.container_no,
    sealNo: row.seal_no,
    containerType: row.container_type,
    vessel: row.vessel,
    voyage: row.voyage,
    mbl: row.mbl,
    hbl: row.hbl,
    driver: row.driver,
    etd: iso(row.etd),
    eta: iso(row.eta),
    portOfLoading: row.port_of_loading,
    portOfDischarge: row.port_of_discharge,
    portOfDestination: row.port_of_destination,
    loadFrom: row.load_from,
    loadTo: row.load_to,
    remarks: row.remarks,
    loadedCartonQty: cartons,
    shippedAt: iso(row.shipped_at),
  };
}

async function loadOf(db: Kysely<DB> | Transaction<DB>, scope: StockScope, loadId: number, lock = false): Promise<LoadRow> {
  const load = await repo.findLoad(db, scope, { id: loadId }, lock);
  if (!load) throw new AppError('NO_RECORD');
  return load;
}

/** The loads of the scope that are not shipped (all with `all`), newest first. */
export async function listLoads(db: Kysely<DB>, scope: StockScope, all: boolean): Promise<LoadHeader[]> {
  const rows = await repo.listLoads(db, scope, all, 200);
  return rows.map(({ carton_qty, ...row }) => headerOf(row, Number(carton_qty)));
}

/** `/loading/getLoadByUid`: a load by its id or its load number. */
export async function getLoad(db: Kysely<DB>, scope: StockScope, which: { loadId?: number; loadNo?: string }): Promise<LoadHeader> {
  const load = which.loadId !== undefined ? await repo.findLoad(db, scope, { id: which.loadId }) : which.loadNo ? await repo.findLoad(db, scope, { loadNo: which.loadNo.trim() }) : undefined;
  if (!load) throw new AppError('NO_RECORD');
  return headerOf(load, await repo.cartonCountOf(db, Number(load.id)));
}

/** `/loading/create`: a new open load numbered by the LOAD numbering rule. */
export async function createLoad(trx: Transaction<DB>, scope: StockScope, input: LoadInput): Promise<LoadHeader> {
  const loadNo = await nextDocumentNumber(trx, 'LOAD', { warehouseId: scope.warehouseId, projectId: scope.projectId });
  const row = await repo.insertLoad(trx, scope, loadNo, columnsOf(input), scope.operator);
  return headerOf(row, 0);
}

/** `/loading/save`: the header fields of a load that is not shipped. */
export async function saveLoad(trx: Transaction<DB>, scope: StockScope, input: LoadInput & { loadId: number }): Promise<LoadHeader> {
  const load = await loadOf(trx, scope, input.loadId, true);
  if (load.status === 'shipped') throw new AppError('LOAD_NOT_OPEN', { loadNo: load.load_no });
  await repo.updateLoad(trx, Number(load.id), columnsOf(input), scope.operator);
  return headerOf((await repo.findLoad(trx, scope, { id: Number(load.id) }))!, await repo.cartonCountOf(trx, Number(load.id)));
}

/** `/loading/close` and `/loading/reopen`: an open load is closed for loading (loaded), and opened again while not shipped. */
export async function setLoadOpen(trx: Transaction<DB>, scope: StockScope, loadId: number, open: boolean): Promise<LoadHeader> {
  const load = await loadOf(trx, scope, loadId, true);
  if (load.status === 'shipped' || (load.status === 'open') === open) throw new AppError('LOAD_NOT_OPEN', { loadNo: load.load_no });
  const cartons = await repo.cartonCountOf(trx, Number(load.id));
  if (!open && cartons === 0) throw new AppError('LOAD_EMPTY', { loadNo: load.load_no });
  await repo.updateLoad(trx, Number(load.id), { status: open ? 'open' : 'loaded' }, scope.operator);
  return headerOf({ ...load, status: open ? 'open' : 'loaded' }, cartons);
}

/** The order's status from its cartons on loads: packed with none, loaded with all, partially loaded between. */
async function refreshLoadedStatus(trx: Transaction<DB>, scope: StockScope, soId: number): Promise<void> {
  const cartons = await cartonsOfOrdersForLoading(trx, scope, [soId]);
  const loaded = new Set(await repo.loadedCartonIdsOfOrder(trx, soId));
  const on = cartons.filter((c) => loaded.has(c.id)).length;
  const to: LoadingStatus = on === 0 ? 'packed' : on === cartons.length ? 'loaded' : 'partial_loaded';
  await setLoadingStatus(trx, scope, soId, to);
}

/** Why a carton may not go onto a load, or undefined when it may. */
async function refusalOf(carton: LoadableCarton, order: PackingOrder | undefined, onLoad: { loadNo: string } | undefined, waveNo: string | undefined): Promise<AppError | undefined> {
  if (!order) return new AppError('NO_RECORD');
  if (order.status === 'cancelled') return new AppError('LOAD_ORDER_CANCELLED', { cartonNo: carton.cartonNo, orderNo: order.orderNo });
  if (waveNo !== undefined && order.waveNo !== waveNo) return new AppError('LOAD_NOT_ON_WAVE', { cartonNo: carton.cartonNo, waveNo });
  if (carton.status !== 'closed') return new AppError('CARTON_OPEN', { cartonNo: carton.cartonNo });
  if (onLoad) return new AppError('CARTON_ON_LOAD', { cartonNo: carton.cartonNo, loadNo: onLoad.loadNo });
  if (!LOADABLE.includes(order.status)) return new AppError('ORDER_STATUS_ERROR', { orderNo: order.orderNo, status: order.status });
  return undefined;
}

/** The cartons a scanned code names: a carton by its number or SSCC, or every carton of a closed pallet by its SSCC or number. */
async function cartonsOfCode(trx: Transaction<DB>, scope: StockScope, code: string): Promise<{ cartons: LoadableCarton[]; palletSscc: string | null }> {
  const carton = await cartonForLoading(trx, scope, code);
  if (carton) return { cartons: [carton], palletSscc: null };
  const pallet = await palletForLoading(trx, scope, code);
  if (!pallet) throw new AppError('NO_RECORD');
  // A pallet is loaded once it is closed: its cartons and its gross weight are final then.
  if (pallet.status !== 'closed') throw new AppError('LOAD_PALLET_OPEN', { palletNo: pallet.palletNo });
  if (pallet.cartons.length === 0) throw new AppError('LOAD_PALLET_EMPTY', { palletNo: pallet.palletNo });
  return { cartons: pallet.cartons, palletSscc: pallet.sscc };
}


/**
 * Puts the cartons onto an open load, all or none: every carton must be closed, of an order that
 * is packed or partly loaded (not cancelled), on no load yet, and of the wave when one is named.
 * The orders are locked in id order, then their statuses follow.
 */
async function loadCartons(trx: Transaction<DB>, scope: StockScope, load: LoadRow, picked: Array<{ carton: LoadableCarton; palletSscc: string | null }>, waveNo: string | undefined): Promise<ScanAnswer> {
  const soIds = [...new Set(picked.map((p) => p.carton.soId))].sort((a, b) => a - b);
  const orders = new Map<number, PackingOrder>();
  for (const soId of soIds) {
    const order = await findPackingOrder(trx, scope, { soId }, true);
    if (order) orders.set(soId, order);
  }
  const onLoads = await repo.loadsOfCartons(trx, picked.map((p) => p.carton.id));
  for (const { carton } of picked) {
    const refusal = await refusalOf(carton, orders.get(carton.soId), onLoads.get(carton.id), waveNo);
    if (refusal) throw refusal;
  }
  await repo.addLoadCartons(
    trx,
    picked.map(({ carton, palletSscc }) => ({ load_id: Number(load.id), carton_id: carton.id, so_id: carton.soId, pallet_sscc: palletSscc, qty: carton.qty })),
    scope.operator,
  );
  for (const soId of soIds) await refreshLoadedStatus(trx, scope, soId);
  await repo.updateLoad(trx, Number(load.id), {}, scope.operator);
  const statuses = await orderNumbers(trx, scope, soIds);
  return {
    load: headerOf(load, await repo.cartonCountOf(trx, Number(load.id))),
    loaded: picked.map(({ carton }) => ({ cartonNo: carton.cartonNo, sscc: carton.sscc, orderNo: orders.get(carton.soId)!.orderNo })),
    orders: soIds.map((soId) => ({ soId, orderNo: statuses.get(soId)!.orderNo, status: statuses.get(soId)!.status })),
  };
}

async function openLoad(trx: Transaction<DB>, scope: StockScope, loadId: number): Promise<LoadRow> {
  const load = await loadOf(trx, scope, loadId, true);
  if (load.status !== 'open') throw new AppError('LOAD_NOT_OPEN', { loadNo: load.load_no });
  return load;
}

/** `/loading/scan` and `/loading/scanByWave`: a carton number, carton SSCC or pallet SSCC onto an open load. */
export async function scanOntoLoad(trx: Transaction<DB>, scope: StockScope, input: { loadId: number; code: string; waveNo?: string | null }): Promise<ScanAnswer> {
  const load = await openLoad(trx, scope, input.loadId);
  const { cartons, palletSscc } = await cartonsOfCode(trx, scope, input.code.trim());
  const waveNo = input.waveNo?.trim() || undefined;
  return loadCartons(trx, scope, load, cartons.map((carton) => ({ carton, palletSscc })), waveNo);
}

/**
 * `/loading/importSscc`: every code of the file (one a row, the first column; a header row that is
 * not a code is skipped) onto the load, all or nothing: when any row fails, nothing is loaded and
 * each failing row is answered with its own reason (LOAD_IMPORT_REJECTED, details per row).
 */
export async function importCodes(trx: Transaction<DB>, scope: StockScope, loadId: number, rows: Array<{ row: number; code: string }>): Promise<ScanAnswer & { rows: number }> {
  const load = await openLoad(trx, scope, loadId);
  const problems: FieldError[] = [];
  // Cartons are looked up in one read; a code that names no carton may name a pallet.
  const byCode = await cartonsForLoadingByCodes(trx, scope, [...new Set(rows.map((r) => r.code))]);
  const found: Array<{ row: number; code: string; cartons: LoadableCarton[]; palletSscc: string | null } | { row: number; code: string; error: AppError }> = [];
  for (const { row, code } of rows) {
    const carton = byCode.get(code);
    if (carton) {
      found.push({ row, code, cartons: [carton], palletSscc: null });
      continue;
    }
    try {
      found.push({ row, code, ...(await cartonsOfCode(trx, scope, code)) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      found.push({ row, code, error });
    }
  }
  const all = found.flatMap((f) => ('cartons' in f ? f.cartons : []));
  const onLoads = await repo.loadsOfCartons(trx, all.map((c) => c.id));
  const orders = new Map<number, PackingOrder | undefined>();
  for (const soId of [...new Set(all.map((c) => c.soId))]) orders.set(soId, await findPackingOrder(trx, scope, { soId }));
  const seen = new Set<number>();
  const picked: Array<{ carton: LoadableCarton; palletSscc: string | null }> = [];
  for (const entry of found) {
    let refusal: AppError | undefined = 'error' in entry ? entry.error : undefined;
    if ('cartons' in entry) {
      for (const carton of entry.cartons) {
        refusal = await refusalOf(carton, orders.get(carton.soId), onLoads.get(carton.id), undefined);
        if (!refusal && seen.has(carton.id)) refusal = new AppError('CARTON_ON_LOAD', { cartonNo: carton.cartonNo, loadNo: load.load_no });
        if (refusal) break;
        seen.add(carton.id);
      }
      if (!refusal) picked.push(...entry.cartons.map((carton) => ({ carton, palletSscc: entry.palletSscc })));
    }
    if (refusal) problems.push({ field: `row ${entry.row}`, code: refusal.code, params: { ...refusal.params, row: entry.row, value: entry.code } });
  }
  if (rows.length === 0) problems.push({ field: 'file', code: 'FIELD_REQUIRED' });
  if (problems.length > 0) throw new AppError('LOAD_IMPORT_REJECTED', { rows: problems.length }, problems);
  return { ...(await loadCartons(trx, scope, load, picked, undefined)), rows: rows.length };
}

/** A carton of a load as `/loading/table` answers it, with when and by whom it was loaded. */
export interface LoadTableRow extends LoadCartonRow {
  loadedAt: string;
  loadedBy: string;
}

/** `/loading/table`: the load's cartons with their orders, and the orders with their carton count. */
export async function loadTable(db: Kysely<DB>, scope: StockScope, loadId: number): Promise<{ load: LoadHeader; cartons: LoadTableRow[]; orders: LoadOrderRow[] }> {
  const load = await loadOf(db, scope, loadId);
  const rows = await repo.cartonsOfLoad(db, Number(load.id));
  const cartons = new Map((await cartonsByIdForLoading(db, scope, rows.map((r) => Number(r.carton_id)))).map((c) => [c.id, c]));
  const soIds = [...new Set(rows.map((r) => Number(r.so_id)))];
  const orders = await orderNumbers(db, scope, soIds);
  const table = rows.map((r): LoadTableRow => {
    const carton = cartons.get(Number(r.carton_id));
    const order = orders.get(Number(r.so_id));
    return {
      cartonId: Number(r.carton_id),
      cartonNo: carton?.cartonNo ?? '',
      sscc: carton?.sscc ?? null,
      palletNo: carton?.palletNo ?? null,
      palletSscc: r.pallet_sscc,
      soId: Number(r.so_id),
      orderNo: order?.orderNo ?? '',
      orderStatus: order?.status ?? '',
      qty: new Decimal(r.qty).toString(),
      loadedAt: new Date(r.created_at).toISOString(),
      loadedBy: r.created_by ?? '',
    };
  });
  const byOrder = soIds.map((soId) => {
    const mine = table.filter((r) => r.soId === soId);
    return { soId, orderNo: orders.get(soId)?.orderNo ?? '', status: orders.get(soId)?.status ?? '', cartons: mine.length, qty: mine.reduce((s, r) => s.plus(r.qty), ZERO).toString() };
  });
  return { load: headerOf(load, rows.length), cartons: table, orders: byOrder };
}

/** `/loading/searchWaveCarton`: the closed and open cartons of a wave's orders, each with the load it is on (or none). */
export async function waveCartons(db: Kysely<DB>, scope: StockScope, waveNo: string) {
  const soIds = await ordersOfWave(db, scope, waveNo.trim());
  const cartons = await cartonsOfOrdersForLoading(db, scope, soIds);
  const loads = await repo.loadsOfCartons(db, cartons.map((c) => c.id));
  const orders = await orderNumbers(db, scope, soIds);
  return {
    rows: cartons.map((c) => ({
      cartonId: c.id,
      cartonNo: c.cartonNo,
      sscc: c.sscc,
      status: c.status,
      palletNo: c.palletNo,
      soId: c.soId,
      orderNo: orders.get(c.soId)?.orderNo ?? '',
      orderStatus: orders.get(c.soId)?.status ?? '',
      qty: new Decimal(c.qty).toString(),
      loadNo: loads.get(c.id)?.loadNo ?? null,
    })),
  };
}

/** `/loading/removeOrder`: every carton of the order comes off the load (open or closed, not shipped); the order's status goes back. */
export async function removeOrder(trx: Transaction<DB>, scope: StockScope, input: { loadId: number; soId: number }): Promise<ScanAnswer> {
  const load = await loadOf(trx, scope, input.loadId, true);
  if (load.status === 'shipped') throw new AppError('LOAD_NOT_OPEN', { loadNo: load.load_no });
  const order = await findPackingOrder(trx, scope, { soId: input.soId }, true);
  if (!order) throw new AppError('NO_RECORD');
  if (!LOADABLE.includes(order.status)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.orderNo, status: order.status });
  const removed = await repo.removeOrderFromLoad(trx, Number(load.id), order.id);
  if (removed === 0) throw new AppError('NO_RECORD');
  await refreshLoadedStatus(trx, scope, order.id);
  await repo.updateLoad(trx, Number(load.id), {}, scope.operator);
  const status = (await orderNumbers(trx, scope, [order.id])).get(order.id)!;
  return { load: headerOf(load, await repo.cartonCountOf(trx, Number(load.id))), loaded: [], orders: [{ soId: order.id, orderNo: order.orderNo, status: status.status }] };
}

/**
 * `/loading/shipConfirm`: in one transaction, the stock of every carton on the load leaves the
 * warehouse through the inventory service (trans type ship: on-hand and picked fall together by
 * the carton line's qty at the carton's licence plate), each order becomes shipped, or partially
 * shipped while some line has less shipped than ordered, the load is shipped, and
 * `loading.shipped` is emitted. Every order on the load must be loaded (LOAD_ORDER_NOT_LOADED).
 */
export async function shipConfirm(trx: Transaction<DB>, scope: StockScope, events: EventBus, loadId: number): Promise<{ load: LoadHeader; orders: Array<{ soId: number; orderNo: string; status: string }> }> {
  const load = await loadOf(trx, scope, loadId, true);
  if (load.status === 'shipped') throw new AppError('LOAD_NOT_OPEN', { loadNo: load.load_no });
  const rows = await repo.cartonsOfLoad(trx, Number(load.id));
  if (rows.length === 0) throw new AppError('LOAD_EMPTY', { loadNo: load.load_no });
  const soIds = [...new Set(rows.map((r) => Number(r.so_id)))].sort((a, b) => a - b);
  const orders = new Map<number, PackingOrder>();
  for (const soId of soIds) {
    const order = await findPackingOrder(trx, scope, { soId }, true);
    if (!order) throw new AppError('NO_RECORD');
    if (!SHIPPABLE.includes(order.status)) throw new AppError('LOAD_ORDER_NOT_LOADED', { orderNo: order.orderNo, status: order.status });
    orders.set(soId, order);
  }
  const contents = await contentsOfCartons(trx, rows.map((r) => Number(r.carton_id)));
  const reference = { type: 'ship', orderNo: load.load_no };
  const changes: StockChange[] = contents.map((c) => ({
    key: { ownerId: c.ownerId, skuId: c.skuId, lotId: c.lotId, locationId: c.locationId, lpn: c.cartonNo },
    transType: 'ship',
    onHand: new Decimal(c.qty).negated(),
    picked: new Decimal(c.qty).negated(),
    reference,
  }));
  await applyStockChanges(trx, scope, changes);

  const answer: Array<{ soId: number; orderNo: string; status: string }> = [];
  for (const soId of soIds) {
    const order = orders.get(soId)!;
    // Shipped of each line: what the order's cartons on shipped loads and on this one hold.
    const shippedCartons = await repo.loadedCartonIdsOfOrder(trx, soId, Number(load.id));
    const shipped = new Map<number, Decimal>();
    for (const c of await contentsOfCartons(trx, shippedCartons)) shipped.set(c.soLineId, (shipped.get(c.soLineId) ?? ZERO).plus(c.qty));
    const all = order.lines.every((l) => (shipped.get(l.id) ?? ZERO).greaterThanOrEqualTo(l.qty));
    const status = await setLoadingStatus(trx, scope, soId, all ? 'shipped' : 'partial_shipped');
    answer.push({ soId, orderNo: order.orderNo, status });
  }
  await repo.updateLoad(trx, Number(load.id), { status: 'shipped', shipped: true }, scope.operator);
  await events.emit(trx, 'loading.shipped', {
    loadId: Number(load.id),
    soIds,
    projectId: scope.projectId,
    warehouseId: scope.warehouseId,
    load: { loadNo: load.load_no, containerNo: load.container_no, sealNo: load.seal_no, vessel: load.vessel, voyage: load.voyage, mbl: load.mbl, hbl: load.hbl },
    cartonIds: rows.map((r) => Number(r.carton_id)),
  });
  const shippedLoad = (await repo.findLoad(trx, scope, { id: Number(load.id) }))!;
  return { load: headerOf(shippedLoad, rows.length), orders: answer };
}

/** `/loading/deliver`: a shipped order is delivered, with the time and the receiver's name. */
export async function deliverOrder(trx: Transaction<DB>, scope: StockScope, input: { soId: number; deliveredAt: string; receiverName: string; remarks?: string | null }) {
  const order = await findPackingOrder(trx, scope, { soId: input.soId }, true);
  if (!order) throw new AppError('NO_RECORD');
  const receiverName = input.receiverName.trim();
  if (!receiverName) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'receiverName', code: 'FIELD_REQUIRED' }]);
  const at = new Date(input.deliveredAt);
  if (Number.isNaN(at.getTime())) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'deliveredAt', code: 'FIELD_TYPE' }]);
  if (order.status !== 'shipped') throw new AppError('LOAD_ORDER_NOT_SHIPPED', { orderNo: order.orderNo, status: order.status });
  await setLoadingStatus(trx, scope, order.id, 'delivered');
  const row = await repo.insertDelivery(trx, scope, { so_id: order.id, delivered_at: at.toISOString(), receiver_name: receiverName, remarks: input.remarks?.trim() || null }, scope.operator);
  return { soId: order.id, orderNo: order.orderNo, status: 'delivered', deliveredAt: new Date(row.delivered_at).toISOString(), receiverName: row.receiver_name };
}

/** `/loading/deliver/photo`: a photo of the delivery, attached to the delivered order's delivery record. */
export async function attachDeliveryPhoto(trx: Transaction<DB>, scope: StockScope, soId: number, files: UploadedFile[], limitBytes: number): Promise<{ soId: number; photos: number }> {
  const order = await findPackingOrder(trx, scope, { soId }, true);
  if (!order) throw new AppError('NO_RECORD');
  if (!(await repo.findDelivery(trx, order.id))) throw new AppError('LOAD_ORDER_NOT_SHIPPED', { orderNo: order.orderNo, status: order.status });
  if (files.length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'photo', code: 'FIELD_REQUIRED' }]);
  await attachFiles(trx, { ...DELIVERY_RECORD, recordKey: String(order.id), projectId: scope.projectId }, files, { remark: null, by: scope.operator, limitBytes });
  return { soId: order.id, photos: files.length };
}
