import type { Kysely, Transaction } from 'kysely';
import { looksLikeGs1, parseGs1 } from '../../../common/gs1.js';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { CfsCarton, CfsCheckAnswer, CfsContainer, CfsOrderStatus, CfsPallet, CfsScanInAnswer, CfsScanLoadAnswer, CfsScanPackAnswer } from '../../../common/cfs-api.js';
import type { DB } from '../../db/schema.js';
import type { StockScope } from '../inventory/index.js';
import { activeCodes, isActiveCode, nextDocumentNumber } from '../masterdata/index.js';
import { addOrdersToShipment, endOrders } from '../outbound/index.js';
import { nextSscc } from '../printing/index.js';
import * as repo from './cfs.repository.js';
import type { CfsCartonRow, CfsPalletRow, OrderHead } from './cfs.repository.js';

/**
 * The container freight station (docs/cfs.md). Shippers deliver cargo already packed: each carton
 * is scanned in against an outbound order of the session's project and warehouse (scan-in, a code
 * once), consolidated onto a CFS pallet with its own SSCC (scan-pack) and scanned, by pallet or
 * alone, onto an open container, a load of the loading area (scan-load). The cartons are the
 * shippers' sealed cargo, not SKU stock of the warehouse: no balance changes while they pass; the
 * one stock effect, an order's allocations given back when it is cancelled, goes through the
 * outbound service (and so the inventory service). Every refusal changes nothing.
 */

type Scope = StockScope;

/** The SSCC extension digit of a CFS pallet (as a packing pallet's). */
const PALLET_SSCC_EXTENSION = 1;
/** Order statuses that take no more cartons: gone, or ended otherwise than by a cancel. */
const NOT_OPEN = ['closed', 'deleted', 'shipped', 'partial_shipped', 'delivered', 'billed'];

/** What a scan names: the text, or the SSCC of a GS1-128 label (AI 00, raw or in brackets). */
export function scannedCode(scanned: string): string {
  const text = scanned.trim();
  if (!looksLikeGs1(text)) return text;
  const parsed = parseGs1(text);
  return parsed.ok && parsed.data.sscc ? parsed.data.sscc : text;
}

function required(code: string, field: string): string {
  if (!code) throw new AppError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_REQUIRED' }]);
  return code;
}

/** Refuses an order that takes no cartons: cancelled, or ended or shipped. */
function assertOpen(order: OrderHead): void {
  if (order.status === 'cancelled') throw new AppError('CFS_ORDER_CANCELLED', { orderNo: order.order_no });
  if (NOT_OPEN.includes(order.status)) throw new AppError('CFS_ORDER_NOT_OPEN', { orderNo: order.order_no, status: order.status });
}

async function orderOf(db: Kysely<DB> | Transaction<DB>, scope: Scope, orderNo: string, lock = false): Promise<OrderHead> {
  const no = required(orderNo.trim(), 'orderNo');
  const [order] = await repo.ordersByNo(db, scope, [no], lock);
  if (!order) throw new AppError('CFS_ORDER_UNKNOWN', { orderNo: no });
  return order;
}

async function cartonAnswers(db: Kysely<DB> | Transaction<DB>, scope: Scope, rows: CfsCartonRow[]): Promise<CfsCarton[]> {
  const orders = await repo.ordersById(db, scope, [...new Set(rows.map((r) => Number(r.so_id)))]);
  const pallets = await repo.palletNosOf(db, [...new Set(rows.flatMap((r) => (r.pallet_id === null ? [] : [Number(r.pallet_id)])))]);
  const loads = await repo.loadNosOf(db, [...new Set(rows.flatMap((r) => (r.load_id === null ? [] : [Number(r.load_id)])))]);
  return rows.map((r) => ({
    id: Number(r.id),
    code: r.code,
    soId: Number(r.so_id),
    orderNo: orders.get(Number(r.so_id))?.order_no ?? '',
    status: r.status,
    palletNo: r.pallet_id === null ? null : (pallets.get(Number(r.pallet_id)) ?? null),
    loadNo: r.load_id === null ? null : (loads.get(Number(r.load_id)) ?? null),
  }));
}

async function palletAnswer(db: Kysely<DB> | Transaction<DB>, scope: Scope, pallet: CfsPalletRow): Promise<CfsPallet> {
  const cartons = await cartonAnswers(db, scope, await repo.cartonsOfPallet(db, Number(pallet.id)));
  const loadNo = pallet.load_id === null ? null : ((await repo.loadNosOf(db, [Number(pallet.load_id)])).get(Number(pallet.load_id)) ?? null);
  return { id: Number(pallet.id), palletNo: pallet.pallet_no, sscc: pallet.sscc, status: pallet.status, loadNo, cartons };
}

const dateText = (value: string | Date | null): string | null => (value === null ? null : typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

/** The CFS view of these orders, in the order given. */
async function orderStatuses(db: Kysely<DB> | Transaction<DB>, orders: readonly OrderHead[]): Promise<CfsOrderStatus[]> {
  const ids = orders.map((o) => o.id);
  const fields = await repo.cfsOrdersOf(db, ids);
  const cartons = await repo.cartonsOfOrders(db, ids);
  return orders.map((order) => {
    const own = cartons.filter((c) => Number(c.so_id) === order.id);
    const count = (status: string) => own.filter((c) => c.status === status).length;
    const f = fields.get(order.id);
    return {
      soId: order.id,
      orderNo: order.order_no,
      status: order.status,
      reference: f?.reference ?? null,
      vessel: f?.vessel ?? null,
      voyage: f?.voyage ?? null,
      etd: dateText(f?.etd ?? null),
      cancelReason: f?.cancel_reason ?? null,
      cartons: { received: count('received'), packed: count('packed'), loaded: count('loaded'), total: own.length },
    };
  });
}

// ---------------------------------------------------------------- scan-in

/** `/cfs/scanIn/order`: an order of the scope and what was scanned in against it. Reads only. */
export async function scanInOrder(db: Kysely<DB>, scope: Scope, orderNo: string): Promise<{ order: CfsOrderStatus; cartons: CfsCarton[] }> {
  const order = await orderOf(db, scope, orderNo);
  const [status] = await orderStatuses(db, [order]);
  return { order: status, cartons: await cartonAnswers(db, scope, await repo.cartonsOfOrders(db, [order.id])) };
}

/**
 * `/cfs/scanIn/scan`: a shipper's carton (its number or SSCC) is received against an order of the
 * scope. Refused: an order that is cancelled, ended or shipped, and a code already scanned in (the
 * unique key keeps it so when two scans race).
 */
export async function scanIn(trx: Transaction<DB>, scope: Scope, input: { orderNo: string; code: string }): Promise<CfsScanInAnswer> {
  const order = await orderOf(trx, scope, input.orderNo, true);
  assertOpen(order);
  const code = required(scannedCode(input.code), 'code');
  const existing = await repo.cartonByCode(trx, scope, code);
  if (existing) {
    const [was] = await cartonAnswers(trx, scope, [existing]);
    throw new AppError('CFS_CARTON_ALREADY_IN', { code, orderNo: was.orderNo });
  }
  const row = await repo.insertCarton(trx, scope, { code, so_id: order.id }, scope.operator);
  const [carton] = await cartonAnswers(trx, scope, [row]);
  const [status] = await orderStatuses(trx, [order]);
  return { carton, order: status };
}

// ---------------------------------------------------------------- pallets and scan-pack

/** `/cfs/add/pallet`: a new open CFS pallet, numbered by the CFS_PALLET rule, with its own SSCC. */
export async function addPallet(trx: Transaction<DB>, scope: Scope): Promise<CfsPallet> {
  const palletNo = await nextDocumentNumber(trx, 'CFS_PALLET', { warehouseId: scope.warehouseId, projectId: scope.projectId });
  const sscc = await nextSscc(trx, { warehouseId: scope.warehouseId, extensionDigit: PALLET_SSCC_EXTENSION });
  return palletAnswer(trx, scope, await repo.insertPallet(trx, scope, { pallet_no: palletNo, sscc }, scope.operator));
}

/** `/cfs/scanPack/pallet`: the CFS pallet of the scope a scan names (number or SSCC), with its cartons. Reads only. */
export async function findPallet(db: Kysely<DB>, scope: Scope, code: string): Promise<CfsPallet> {
  const text = required(scannedCode(code), 'code');
  const pallet = await repo.palletByCode(db, scope, text);
  if (!pallet) throw new AppError('CFS_PALLET_UNKNOWN', { code: text });
  return palletAnswer(db, scope, pallet);
}

/** The carton of the scope a scan names, locked; refused when it was never scanned in here. */
async function scannedCarton(trx: Transaction<DB>, scope: Scope, scanned: string): Promise<CfsCartonRow> {
  const code = required(scannedCode(scanned), 'code');
  const carton = await repo.cartonByCode(trx, scope, code, true);
  if (!carton) throw new AppError('CFS_CARTON_UNKNOWN', { code });
  return carton;
}

/** Refuses a carton whose order was cancelled meanwhile (its cartons wait to go back to the shipper). */
async function assertCartonOrdersOpen(trx: Transaction<DB>, scope: Scope, cartons: readonly CfsCartonRow[]): Promise<void> {
  const orders = await repo.ordersById(trx, scope, [...new Set(cartons.map((c) => Number(c.so_id)))]);
  for (const carton of cartons) {
    const order = orders.get(Number(carton.so_id));
    if (!order) throw new AppError('CFS_CARTON_UNKNOWN', { code: carton.code });
    if (order.status === 'cancelled') throw new AppError('CFS_ORDER_CANCELLED', { orderNo: order.order_no });
  }
}

/**
 * `/cfs/scanPack/scan`: a scanned-in carton goes onto an open CFS pallet. Cartons of several orders
 * may share a pallet (consolidation). Refused: a carton already on a pallet or loaded, a carton of a
 * cancelled order, a pallet already loaded.
 */
export async function scanPack(trx: Transaction<DB>, scope: Scope, input: { palletId: number; code: string }): Promise<CfsScanPackAnswer> {
  const pallet = await repo.palletById(trx, scope, input.palletId, true);
  if (!pallet) throw new AppError('CFS_PALLET_UNKNOWN', { code: String(input.palletId) });
  if (pallet.status !== 'open') throw new AppError('CFS_PALLET_LOADED', { palletNo: pallet.pallet_no });
  const carton = await scannedCarton(trx, scope, input.code);
  if (carton.status === 'loaded') throw new AppError('CFS_CARTON_LOADED', { code: carton.code });
  if (carton.pallet_id !== null) {
    const palletNo = (await repo.palletNosOf(trx, [Number(carton.pallet_id)])).get(Number(carton.pallet_id)) ?? '';
    throw new AppError('CFS_CARTON_ON_PALLET', { code: carton.code, palletNo });
  }
  await assertCartonOrdersOpen(trx, scope, [carton]);
  await repo.updateCartons(trx, [Number(carton.id)], { status: 'packed', pallet_id: Number(pallet.id) }, scope.operator);
  const [answer] = await cartonAnswers(trx, scope, [(await repo.cartonById(trx, Number(carton.id)))!]);
  return { pallet: await palletAnswer(trx, scope, pallet), carton: answer };
}

// ---------------------------------------------------------------- scan-load

async function containerAnswer(db: Kysely<DB> | Transaction<DB>, load: { id: number | string; load_no: string; container_no: string | null; status: string }): Promise<CfsContainer> {
  const counts = await repo.countsOnLoad(db, Number(load.id));
  return { id: Number(load.id), loadNo: load.load_no, containerNo: load.container_no, status: load.status, ...counts };
}

/** `/cfs/scanLoad/container`: the load of the scope a scan names (load number or container number), with what the CFS put on it. Reads only. */
export async function findContainer(db: Kysely<DB>, scope: Scope, code: string): Promise<CfsContainer> {
  const text = required(code.trim(), 'code');
  const load = await repo.loadByCode(db, scope, text);
  if (!load) throw new AppError('CFS_CONTAINER_UNKNOWN', { code: text });
  return containerAnswer(db, load);
}

/**
 * `/cfs/scanLoad/scan`: a CFS pallet (number or SSCC: all its cartons) or a carton not on a pallet
 * goes onto an open container. Refused: a container no longer open (closed for loading or shipped),
 * an empty or already loaded pallet, a carton on a pallet (its pallet is loaded instead) or already
 * loaded, and any carton of a cancelled order; all or nothing.
 */
export async function scanLoad(trx: Transaction<DB>, scope: Scope, input: { loadId: number; code: string }): Promise<CfsScanLoadAnswer> {
  const load = await repo.loadById(trx, scope, input.loadId, true);
  if (!load) throw new AppError('CFS_CONTAINER_UNKNOWN', { code: String(input.loadId) });
  if (load.status !== 'open') throw new AppError('CFS_CONTAINER_CLOSED', { loadNo: load.load_no, containerNo: load.container_no ?? load.load_no });
  const code = required(scannedCode(input.code), 'code');
  const pallet = await repo.palletByCode(trx, scope, code, true);
  let cartons: CfsCartonRow[];
  if (pallet) {
    if (pallet.status !== 'open') throw new AppError('CFS_PALLET_LOADED', { palletNo: pallet.pallet_no });
    cartons = await repo.cartonsOfPallet(trx, Number(pallet.id), true);
    if (cartons.length === 0) throw new AppError('CFS_PALLET_EMPTY', { palletNo: pallet.pallet_no });
  } else {
    const carton = await repo.cartonByCode(trx, scope, code, true);
    if (!carton) throw new AppError('CFS_CARTON_UNKNOWN', { code });
    if (carton.status === 'loaded') throw new AppError('CFS_CARTON_LOADED', { code: carton.code });
    if (carton.pallet_id !== null) {
      const palletNo = (await repo.palletNosOf(trx, [Number(carton.pallet_id)])).get(Number(carton.pallet_id)) ?? '';
      throw new AppError('CFS_CARTON_ON_PALLET', { code: carton.code, palletNo });
    }
    cartons = [carton];
  }
  await assertCartonOrdersOpen(trx, scope, cartons);
  const ids = cartons.map((c) => Number(c.id));
  await repo.updateCartons(trx, ids, { status: 'loaded', load_id: Number(load.id), loaded: true }, scope.operator);
  if (pallet) await repo.loadPallet(trx, Number(pallet.id), Number(load.id), scope.operator);
  const loaded = await cartonAnswers(trx, scope, await Promise.all(ids.map(async (id) => (await repo.cartonById(trx, id))!)));
  return { container: await containerAnswer(trx, load), loaded, palletNo: pallet?.pallet_no ?? null };
}

// ---------------------------------------------------------------- orders

/** Order numbers of a request, each once, blanks left out. */
function uniqueNos(orderNos: readonly string[]): string[] {
  return [...new Set(orderNos.map((no) => no.trim()).filter((no) => no !== ''))];
}

/** The orders of the scope with these numbers, locked; refused by the first number that names none. */
async function ordersOrRefuse(trx: Transaction<DB>, scope: Scope, orderNos: readonly string[]): Promise<OrderHead[]> {
  const nos = uniqueNos(orderNos);
  if (nos.length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderNos', code: 'FIELD_REQUIRED' }]);
  const orders = await repo.ordersByNo(trx, scope, nos, true);
  const missing = nos.find((no) => !orders.some((o) => o.order_no === no));
  if (missing !== undefined) throw new AppError('CFS_ORDER_UNKNOWN', { orderNo: missing });
  return orders;
}

/** `/cfs/add/order/shipment`: orders of the scope onto an open shipment order, through the outbound area. */
export async function addOrdersToShipmentOrder(trx: Transaction<DB>, scope: Scope, input: { shipmentNo: string; orderNos: string[] }): Promise<{ shipmentNo: string; added: number }> {
  const shipmentNo = required(input.shipmentNo.trim(), 'shipmentNo');
  const shipment = await repo.shipmentByNo(trx, scope, shipmentNo);
  if (!shipment) throw new AppError('CFS_SHIPMENT_UNKNOWN', { shipmentNo });
  const orders = await ordersOrRefuse(trx, scope, input.orderNos);
  for (const order of orders) if (order.status === 'cancelled') throw new AppError('CFS_ORDER_CANCELLED', { orderNo: order.order_no });
  const added = await addOrdersToShipment(trx, { projectId: scope.projectId, warehouseId: scope.warehouseId, login: scope.operator }, Number(shipment.id), orders.map((o) => o.id));
  return { shipmentNo, added };
}

export interface BatchRow {
  orderNo: string;
  reference?: string | null;
  vessel?: string | null;
  voyage?: string | null;
  etd?: string | null;
}

const FIELDS = ['reference', 'vessel', 'voyage', 'etd'] as const;

/**
 * `/cfs/batchUpdate`: the CFS fields (reference, vessel, voyage, ETD) of many orders at once; a
 * field left out stays, an empty one is cleared. All or nothing: when any row fails, nothing
 * changes and each failing row is named with its reason (CFS_BATCH_REJECTED, details per row).
 */
export async function batchUpdate(trx: Transaction<DB>, scope: Scope, rows: readonly BatchRow[]): Promise<{ updated: number }> {
  const orders = new Map((await repo.ordersByNo(trx, scope, uniqueNos(rows.map((r) => r.orderNo)), true)).map((o) => [o.order_no, o]));
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const row = i + 1;
    const orderNo = r.orderNo.trim();
    const order = orders.get(orderNo);
    const field = `row ${row}: orderNo`;
    if (!orderNo) problems.push({ field, code: 'FIELD_REQUIRED' });
    else if (seen.has(orderNo)) problems.push({ field, code: 'FIELD_NOT_UNIQUE' });
    else if (!order) problems.push({ field, code: 'CFS_ORDER_UNKNOWN', params: { orderNo } });
    else if (order.status === 'cancelled') problems.push({ field, code: 'CFS_ORDER_CANCELLED', params: { orderNo } });
    else if (NOT_OPEN.includes(order.status)) problems.push({ field, code: 'CFS_ORDER_NOT_OPEN', params: { orderNo, status: order.status } });
    seen.add(orderNo);
  });
  if (problems.length) throw new AppError('CFS_BATCH_REJECTED', { rows: rows.length }, problems);
  for (const r of rows) {
    const fields: repo.CfsOrderFields = {};
    for (const name of FIELDS) if (name in r) fields[name] = typeof r[name] === 'string' && r[name].trim() !== '' ? r[name].trim() : null;
    await repo.saveCfsOrder(trx, scope, orders.get(r.orderNo.trim())!.id, fields, scope.operator);
  }
  return { updated: rows.length };
}

/** `/cfs/cancelReasonCodeList`: the active codes of the code-master type CANCEL_REASON in the user's language. */
export async function cancelReasonList(db: Kysely<DB>, language: Language): Promise<{ rows: Array<{ code: string; description: string }> }> {
  return { rows: await activeCodes(db, repo.CANCEL_REASON, language) };
}

/**
 * `/cfs/cancelWithReason`: orders of the scope are cancelled through the outbound area (what they
 * hold is given back) with a reason of `/cfs/cancelReasonCodeList`, recorded with a remark. Their
 * cartons come off open pallets and wait, received, to go back to the shipper. Refused: an unknown
 * reason, and an order with a carton already on a container.
 */
export async function cancelWithReason(trx: Transaction<DB>, scope: Scope, input: { orderNos: string[]; reasonCode: string; remark?: string | null }): Promise<{ cancelled: CfsOrderStatus[] }> {
  const reason = input.reasonCode.trim();
  if (!(await isActiveCode(trx, repo.CANCEL_REASON, reason))) throw new AppError('CFS_REASON_UNKNOWN', { code: reason });
  const orders = await ordersOrRefuse(trx, scope, input.orderNos);
  const cartons = await repo.cartonsOfOrders(trx, orders.map((o) => o.id), true);
  for (const order of orders) {
    if (order.status === 'cancelled') throw new AppError('CFS_ORDER_CANCELLED', { orderNo: order.order_no });
    if (cartons.some((c) => Number(c.so_id) === order.id && c.status === 'loaded')) throw new AppError('CFS_ORDER_LOADED', { orderNo: order.order_no });
  }
  await endOrders(trx, scope, orders.map((o) => o.id), 'cancelled');
  await repo.updateCartons(trx, cartons.filter((c) => c.status === 'packed').map((c) => Number(c.id)), { status: 'received', pallet_id: null }, scope.operator);
  const remark = input.remark?.trim() || null;
  for (const order of orders) await repo.saveCfsOrder(trx, scope, order.id, { cancel_reason: reason, cancel_remark: remark, cancelled: true }, scope.operator);
  return { cancelled: await orderStatuses(trx, await repo.ordersByNo(trx, scope, orders.map((o) => o.order_no))) };
}

/** `/cfs/checkOrderStatus`: each order number with its status, CFS fields and cartons, or not found (also another project's). Reads only. */
export async function checkOrderStatus(db: Kysely<DB>, scope: Scope, orderNos: readonly string[]): Promise<CfsCheckAnswer> {
  const nos = uniqueNos(orderNos);
  const orders = await repo.ordersByNo(db, scope, nos);
  const statuses = new Map((await orderStatuses(db, orders)).map((s) => [s.orderNo, s]));
  return { rows: nos.map((orderNo) => ({ orderNo, found: statuses.has(orderNo), order: statuses.get(orderNo) ?? null })) };
}
