import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import { pipelined } from '../../db/pipeline.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import { applyStockChanges, sendStockChanges, type StockScope } from '../inventory/index.js';
import { activeCodes, isActiveCode, nextDocumentNumber, readBarcode, type ReadBarcode, type SkuOfBarcode, skusOfBarcode } from '../masterdata/index.js';
import { cancelPackingStatus, findPackingOrder, packingOrderStatement, setPackingStatus, shipToOfOrder, unpickOrder, type PackingOrder, type PackingOrderLine, type PickedSource } from '../outbound/index.js';
import { nextSscc, printerOfJob, printLabel, type CartonLabel } from '../printing/index.js';
import type { CartonAnswer } from '../../../common/packing-api.js';
import * as repo from './packing.repository.js';
import type { CartonView } from './packing.repository.js';

/**
 * Scan and pack: an order that is picked is packed into cartons by scanning its items. Packed stock
 * stays picked stock of the order; it moves from where picking put it (location and licence plate)
 * onto the carton, whose number is its licence plate, at the same location, through the inventory
 * service, and back when it is taken out. No line may have more packed than picked (over pack), a
 * closed carton takes nothing and gives nothing back (until it is reopened), an empty carton can be
 * neither closed nor unpacked, an item whose units carry an anti-counterfeit code is packed with its
 * code (unless it is a gift; a code goes into one carton of the warehouse only), an item with a
 * woolen collar barcode is packed with the collar scanned and matching, and once
 * every carton is closed the order is checked complete: packed when all its picked stock is packed,
 * partially packed otherwise.
 */

const ZERO = new Decimal(0);
export const CARTON_TYPE = 'CARTON_TYPE';
export const WEIGHT_UOM = 'WEIGHT_UOM';
/** The SSCC extension digit of a carton (a pallet has its own). */
export const CARTON_SSCC_EXTENSION = 0;

/** Order statuses in which packing may start or go on: picked, and partly picked when the caller chose to pack what is picked. */
function assertPackable(order: PackingOrder, packPicked: boolean): void {
  // A partial check-complete must be cancelled before the order is packed again.
  if (order.status === 'partial_packed') throw new AppError('PACK_CANCEL_CHECK_COMPLETE_FIRST', { orderNo: order.orderNo });
  const allowed = order.status === 'picked' || (order.status === 'partial_picked' && packPicked);
  if (!allowed) throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.orderNo, status: order.status });
  if (order.lines.every((l) => new Decimal(l.pickedQty).isZero())) throw new AppError('PACK_NOTHING_PICKED', { orderNo: order.orderNo });
}

export type { CartonAnswer };

export interface PackAnswer {
  order: { id: number; orderNo: string; status: string; waveNo: string | null };
  lines: Array<{ lineId: number; lineNo: number; skuId: number; skuCode: string; ordered: string; picked: string; packed: string }>;
  /** The order's open carton (the latest when several are open), or null. */
  openCarton: CartonAnswer | null;
  cartons: CartonAnswer[];
}

const num = (value: string | null): string | null => (value === null ? null : new Decimal(value).toString());

/** The cartons of an order with their lines, as read under the order's lock. */
interface OrderCartons {
  cartons: CartonView[];
  lines: Array<{ carton_id: number; so_line_id: number; sku_id: number; qty: string }>;
}

/** The order as packing sees it: its lines with ordered, picked and packed qty, and its cartons. */
async function packAnswer(db: Kysely<DB> | Transaction<DB>, order: PackingOrder, read?: OrderCartons): Promise<PackAnswer> {
  // A carton line always packs a line of its carton's order, so the order's cartons hold all that is packed of its lines.
  const { cartons, lines: cartonLines } = read ?? (await repo.cartonsWithLinesOfOrder(db, order.id));
  const packed = new Map<number, Decimal>();
  for (const line of cartonLines) packed.set(Number(line.so_line_id), (packed.get(Number(line.so_line_id)) ?? ZERO).plus(line.qty));
  // The order's lines carry their SKU codes; a carton line's SKU is one of them.
  const codes = new Map(order.lines.map((l) => [l.skuId, l.sku.code]));
  const unknown = [...new Set(cartonLines.map((l) => Number(l.sku_id)))].filter((id) => !codes.has(id));
  if (unknown.length > 0) for (const [id, code] of await repo.skuCodes(db, unknown)) codes.set(id, code);
  const cartonAnswers = cartons.map((carton): CartonAnswer => {
    const merged = new Map<number, { soLineId: number; skuId: number; skuCode: string; qty: Decimal }>();
    for (const line of cartonLines.filter((l) => Number(l.carton_id) === Number(carton.id))) {
      const key = Number(line.so_line_id);
      const entry = merged.get(key) ?? { soLineId: key, skuId: Number(line.sku_id), skuCode: codes.get(Number(line.sku_id)) ?? '', qty: ZERO };
      entry.qty = entry.qty.plus(line.qty);
      merged.set(key, entry);
    }
    return {
      id: Number(carton.id),
      cartonNo: carton.carton_no,
      cartonType: carton.carton_type,
      status: carton.status,
      grossWeight: num(carton.gross_weight),
      netWeight: num(carton.net_weight),
      weightUom: carton.weight_uom,
      length: num(carton.length),
      width: num(carton.width),
      height: num(carton.height),
      sscc: carton.sscc,
      trackingNo: carton.tracking_no,
      cardId: carton.card_id,
      lines: [...merged.values()].map((l) => ({ ...l, qty: l.qty.toString() })),
    };
  });
  const open = cartonAnswers.filter((c) => c.status === 'open');
  return {
    order: { id: order.id, orderNo: order.orderNo, status: order.status, waveNo: order.waveNo },
    lines: order.lines.map((l) => ({
      lineId: l.id,
      lineNo: l.lineNo,
      skuId: l.skuId,
      skuCode: codes.get(l.skuId) ?? '',
      ordered: new Decimal(l.qty).toString(),
      picked: new Decimal(l.pickedQty).toString(),
      packed: new Decimal(packed.get(l.id) ?? 0).toString(),
    })),
    openCarton: open.length > 0 ? open[open.length - 1] : null,
    cartons: cartonAnswers,
  };
}

/**
 * `/scanPack`: starts packing an order by its number; refuses an order packing may not take. Packing
 * by wave names the wave too: an order that is not on that wave is refused (SCAN_BY_WAVE). Reads only.
 */
export async function startPacking(db: Kysely<DB>, scope: StockScope, input: { orderNo: string; waveNo?: string | null; packPicked?: boolean; checkCompleted?: boolean }): Promise<PackAnswer> {
  const order = await findPackingOrder(db, scope, { orderNo: input.orderNo.trim() });
  if (!order) throw new AppError('NO_RECORD');
  const waveNo = input.waveNo?.trim();
  if (waveNo && order.waveNo !== waveNo) throw new AppError('SCAN_BY_WAVE', { orderNo: order.orderNo, waveNo });
  // Looking at a check-completed order (packed or partially packed) only, to cancel its check-complete.
  if (input.checkCompleted === true) {
    if (order.status !== 'packed' && order.status !== 'partial_packed') throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.orderNo, status: order.status });
    return packAnswer(db, order);
  }
  assertPackable(order, input.packPicked === true);
  return packAnswer(db, order);
}

/** The order, locked, of the scope: NO_RECORD when it is not there. */
async function lockedOrder(trx: Transaction<DB>, scope: StockScope, soId: number): Promise<PackingOrder> {
  const order = await findPackingOrder(trx, scope, { soId }, true);
  if (!order) throw new AppError('NO_RECORD');
  return order;
}

/** `/pack/scan/open`: a new open carton for the order, numbered by the carton numbering rule. */
/**
 * `/pack/scan/open`: a new open carton for the order, numbered by the carton numbering rule. A carton
 * may be opened with the RFID card it carries (`cardId`); a card another open carton of the warehouse
 * still carries is refused (CARD_REPLACE): it is damaged or already in use and must be replaced.
 */
export async function openCarton(trx: Transaction<DB>, scope: StockScope, input: { soId: number; cartonType?: string | null; packPicked?: boolean; cardId?: string | null }): Promise<PackAnswer> {
  const order = await lockedOrder(trx, scope, input.soId);
  assertPackable(order, input.packPicked === true);
  const cartonType = input.cartonType?.trim() || null;
  if (cartonType !== null && !(await isActiveCode(trx, CARTON_TYPE, cartonType))) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'cartonType', code: 'FIELD_FOREIGN' }]);
  }
  const cardId = input.cardId?.trim() || null;
  if (cardId !== null) {
    await repo.lockWarehouseKey(trx, scope.warehouseId, 'card', cardId);
    const holder = await repo.openCartonOfCard(trx, scope.warehouseId, cardId);
    if (holder !== undefined) throw new AppError('CARD_REPLACE', { cardId, cartonNo: holder });
  }
  const cartonNo = await nextDocumentNumber(trx, 'CARTON', { warehouseId: scope.warehouseId, projectId: scope.projectId });
  await repo.insertCarton(trx, { project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: order.id, carton_no: cartonNo, carton_type: cartonType, card_id: cardId, by: scope.operator });
  return packAnswer(trx, order);
}

/**
 * `/pack/scan/reopen`: a closed carton of the order being packed, scanned by its carton number or
 * SSCC (or named by `cartonId`), is opened again to append to it. Only while the order may be packed
 * (not check-completed, not loaded or shipped) and the carton is on no pallet. The carton keeps its
 * SSCC (an SSCC is never given again nor changed); closing it again prints its label again. A carton
 * of another order is refused: its SSCC holds no mixed-pack orders (SSCC_MIXED_PACK). An open carton
 * stays as it is.
 */
export async function reopenCartonOf(trx: Transaction<DB>, scope: StockScope, input: { soId: number; cartonId?: number; carton?: string }): Promise<PackAnswer & { reopened: CartonAnswer }> {
  const code = input.carton?.trim() ?? '';
  if (input.cartonId === undefined && !code) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'carton', code: 'FIELD_REQUIRED' }]);
  const order = await lockedOrder(trx, scope, input.soId);
  assertPackable(order, true);
  const carton = input.cartonId !== undefined ? await repo.findCarton(trx, scope, input.cartonId, true) : await repo.findCartonByCode(trx, scope, code, true);
  if (!carton) throw new AppError('NO_RECORD');
  if (Number(carton.so_id) !== order.id) throw new AppError('SSCC_MIXED_PACK', { sscc: carton.sscc ?? carton.carton_no });
  if (carton.pallet_id !== null) {
    const palletNo = (await repo.palletNosOf(trx, [Number(carton.pallet_id)])).get(Number(carton.pallet_id)) ?? '';
    throw new AppError('CARTON_ON_PALLET', { cartonNo: carton.carton_no, palletNo });
  }
  if (carton.status !== 'open') await repo.reopenCarton(trx, Number(carton.id), scope.operator);
  const answer = await packAnswer(trx, order);
  return { ...answer, reopened: answer.cartons.find((c) => c.id === Number(carton.id))! };
}

/**
 * Which order each carton packs, and that order's owner, as this server has seen them: a carton
 * never changes order, project or warehouse, so a scan locks the carton's order without asking the
 * database which it is, and sends its reads right behind that lock. One per application (per
 * database); the oldest are forgotten beyond `max`. What it answers is checked again under the lock
 * (the carton is touched only as a carton of that order in the scope, the owner against the locked
 * order's).
 */
export class CartonOrders {
  private readonly known = new Map<number, { soId: number; ownerId: number; projectId: number; warehouseId: number }>();

  constructor(private readonly max = 20_000) {}

  /** The order of the carton and its owner when seen in this scope, else undefined. */
  get(cartonId: number, scope: Pick<StockScope, 'projectId' | 'warehouseId'>): { soId: number; ownerId: number } | undefined {
    const seen = this.known.get(cartonId);
    return seen && seen.projectId === scope.projectId && seen.warehouseId === scope.warehouseId ? { soId: seen.soId, ownerId: seen.ownerId } : undefined;
  }

  set(cartonId: number, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, order: { soId: number; ownerId: number }): void {
    if (this.known.size >= this.max && !this.known.has(cartonId)) this.known.delete(this.known.keys().next().value!);
    this.known.set(cartonId, { soId: order.soId, ownerId: order.ownerId, projectId: scope.projectId, warehouseId: scope.warehouseId });
  }

  forget(cartonId: number): void {
    this.known.delete(cartonId);
  }
}

/** What a scan call may pass to the carton lock: the server's carton orders, and the scanned code to look up under the lock. */
interface LockOptions {
  cartonOrders?: CartonOrders;
  scan?: { code: string; gs1Label: boolean };
}

/**
 * The carton and its order, locked in the order allocation and picking lock (order, then carton,
 * then stock), the carton marked changed by the operator, with every carton of the order and their
 * lines as they stand under that lock; with `scan`, in the same statement, the SKU of the order's
 * owner the code names and where the picked stock of the order's lines of that SKU stands.
 * Refuses a carton of another project or warehouse (NO_RECORD) and a closed carton.
 *
 * When this server has seen the carton (`cartonOrders`), the order's lock and that statement are
 * sent together (`pipelined`): the statement runs once the lock is held, with the owner seen
 * before; should the locked order have another owner, the statement is sent again with it.
 */
async function lockedCarton(
  trx: Transaction<DB>,
  scope: StockScope,
  cartonId: number,
  options: LockOptions = {},
): Promise<{ carton: CartonView; order: PackingOrder; read: { cartons: CartonView[]; lines: repo.PackedLine[] }; sku?: SkuOfBarcode; places?: Map<number, PickedSource[]> }> {
  const cached = options.cartonOrders?.get(cartonId, scope);
  const scanOf = (soId: number, ownerId: number) =>
    options.scan ? { projectId: scope.projectId, soId, code: options.scan.code, options: { ownerId, gs1Label: options.scan.gs1Label } } : undefined;
  let order: PackingOrder | undefined;
  let touchedRead: repo.TouchedCarton | undefined;
  if (cached !== undefined) {
    // Every caller changes the carton: it is marked changed as it is locked (rolled back with a refused scan).
    [order, touchedRead] = await pipelined<[PackingOrder | undefined, repo.TouchedCarton]>(trx, [
      packingOrderStatement(trx, scope, { soId: cached.soId }, true),
      repo.touchCartonReadingOrderStatement(trx, scope, cartonId, cached.soId, scope.operator, scanOf(cached.soId, cached.ownerId)),
    ]);
    if (!order) throw new AppError('NO_RECORD');
    if (order.ownerId !== cached.ownerId) touchedRead = undefined;
  } else {
    const soId = await repo.orderOfCarton(trx, scope, cartonId);
    if (soId === undefined) throw new AppError('NO_RECORD');
    order = await lockedOrder(trx, scope, soId);
  }
  touchedRead ??= await repo.touchCartonReadingOrder(trx, scope, cartonId, order.id, scope.operator, scanOf(order.id, order.ownerId));
  const { touched, sku, places, ...read } = touchedRead;
  const carton = read.cartons.find((c) => Number(c.id) === cartonId);
  if (!touched || !carton) {
    // A carton seen before and gone since (its order's check-complete was cancelled with its cartons removed).
    if (cached !== undefined) {
      options.cartonOrders?.forget(cartonId);
      return lockedCarton(trx, scope, cartonId, { ...options, cartonOrders: undefined });
    }
    throw new AppError('NO_RECORD');
  }
  options.cartonOrders?.set(cartonId, scope, { soId: order.id, ownerId: order.ownerId });
  if (carton.status !== 'open') throw new AppError('CARTON_CLOSED', { cartonNo: carton.carton_no });
  return { carton, order, read, sku, places };
}

/**
 * The SKU of the order's owner a scan names and the quantity in base units: a SKU code or one of its
 * barcodes (times the scanned qty, 1 when not given, times the barcode's package quantity), or a
 * GS1-128 label whose GTIN is one of its barcodes (its count, else the scanned qty, times the package
 * quantity; a batch on the label is the lot number of the stock it is). A label that does not parse,
 * or has no GTIN, is a wrong barcode format. `found` is the SKU the code was looked up as, when
 * it was looked up already (undefined: none).
 */
async function scannedItem(
  trx: Transaction<DB>,
  scope: StockScope,
  order: PackingOrder,
  barcode: string,
  qty: string | undefined,
  found?: { sku: SkuOfBarcode | undefined },
): Promise<{ skuId: number; skuCode: string; qty: Decimal; batch?: string }> {
  if (!barcode.trim()) throw new AppError('INVALID_SKU');
  const read = readBarcode(barcode);
  if (!read.ok) throw new AppError('BARCODE_FORMAT');
  let scans = new Decimal(qty ?? 1);
  const batch = read.gs1?.batch;
  const count = read.gs1?.count;
  if (count !== undefined) {
    if (count <= 0) throw new AppError('BARCODE_FORMAT');
    scans = new Decimal(count);
  }
  const sku = found ? found.sku : (await skusOfBarcode(trx, scope.projectId, read.code, { ownerId: order.ownerId, gs1Label: read.gs1 !== null }))[0];
  if (!sku) throw new AppError('INVALID_SKU');
  return { skuId: sku.skuId, skuCode: sku.skuCode, qty: scans.times(sku.perScan), batch };
}

/** What a scan looks up: the code of a scan that reads (a SKU code, a barcode, a GS1 label's GTIN), or undefined for one refused before any lookup. */
function lookupOf(barcode: string): LockOptions['scan'] {
  if (!barcode.trim()) return undefined;
  const read: ReadBarcode = readBarcode(barcode);
  if (!read.ok) return undefined;
  return { code: read.code, gs1Label: read.gs1 !== null };
}

/** A collar barcode against the SKU's: equal, or matching its pattern (`*` any characters, `?` one). */
export function collarMatches(expected: string, scanned: string): boolean {
  if (!/[*?]/.test(expected)) return scanned === expected;
  const pattern = expected.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`).test(scanned);
}

export interface PackItemInput {
  cartonId: number;
  barcode: string;
  qty?: string;
  /** The code of the unit packed, for an item whose units carry one. */
  antiCounterfeitCode?: string | null;
  /** The barcode scanned on the item's woolen collar, for an item that has one. */
  collarBarcode?: string | null;
}

/**
 * What the item's SKU asks of a scan beyond the barcode: an anti-counterfeit code, one per unit, not
 * packed before in the warehouse (a gift needs none), and a collar barcode matching the SKU's. The
 * code to keep on the carton line, or null.
 */
async function checkItemCodes(
  trx: Transaction<DB>,
  scope: StockScope,
  item: { skuId: number; skuCode: string; qty: Decimal },
  checks: PackingOrderLine['sku'],
  input: PackItemInput,
): Promise<string | null> {
  let code: string | null = null;
  if (checks.antiCounterfeit && !checks.gift) {
    code = input.antiCounterfeitCode?.trim() || null;
    if (code === null) throw new AppError('PACK_ANTI_COUNTERFEIT_REQUIRED', { sku: item.skuCode }, [{ field: 'antiCounterfeitCode', code: 'FIELD_REQUIRED' }]);
    // One code names one unit.
    if (!item.qty.equals(1)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'qty', code: 'FIELD_RANGE' }]);
    await repo.lockWarehouseKey(trx, scope.warehouseId, 'anti-counterfeit', code);
    const cartonNo = await repo.cartonOfAntiCounterfeitCode(trx, scope.warehouseId, code);
    if (cartonNo !== undefined) throw new AppError('PACK_ANTI_COUNTERFEIT_USED', { code, cartonNo });
  }
  const expected = checks.collarBarcode?.trim();
  if (expected) {
    const collar = input.collarBarcode?.trim() ?? '';
    if (!collar) throw new AppError('PACK_COLLAR_REQUIRED', { sku: item.skuCode }, [{ field: 'collarBarcode', code: 'FIELD_REQUIRED' }]);
    if (!collarMatches(expected, collar)) throw new AppError('PACK_COLLAR_MISMATCH', { sku: item.skuCode, collar });
  }
  return code;
}

/**
 * `/pack/scan/sku`: packs the scanned item into the open carton, from the picked stock of the order's
 * lines of that SKU. What the scan needs is read under the order's lock in two statements (the order
 * locked with its lines and SKUs; then the carton touched with the order's cartons and lines, the
 * scanned SKU and where the lines' picked stock stands); the carton's order comes from
 * `cartonOrders` when this server has seen the carton. The answer is made from what was read and
 * what the scan wrote, not read again.
 */
export async function packItem(trx: Transaction<DB>, scope: StockScope, input: PackItemInput, options: { cartonOrders?: CartonOrders } = {}): Promise<PackAnswer> {
  const lookup = lookupOf(input.barcode);
  const { carton, order, read, sku, places } = await lockedCarton(trx, scope, input.cartonId, { cartonOrders: options.cartonOrders, scan: lookup });
  assertPackable(order, true);
  const item = await scannedItem(trx, scope, order, input.barcode, input.qty, lookup ? { sku } : undefined);
  const lines = order.lines.filter((l) => l.skuId === item.skuId);
  if (lines.length === 0) throw new AppError('PACK_ITEM_NOT_ON_ORDER', { sku: item.skuCode, orderNo: order.orderNo });
  // What is packed of these lines, per place their picked stock stood and in all.
  const ids = new Set(lines.map((l) => l.id));
  const packedSources = read.lines.filter((l) => ids.has(l.so_line_id)).map((l) => ({ soLineId: l.so_line_id, lotId: l.lot_id, locationId: l.from_location_id, lpn: l.from_lpn, qty: l.qty }));
  const packed = new Map<number, Decimal>();
  for (const row of packedSources) packed.set(row.soLineId, (packed.get(row.soLineId) ?? ZERO).plus(row.qty));
  const packedFrom = (soLineId: number, source: { lotId: number; locationId: number; lpn: string }) =>
    packedSources.filter((r) => r.soLineId === soLineId && r.lotId === source.lotId && r.locationId === source.locationId && r.lpn === source.lpn).reduce((sum, r) => sum.plus(r.qty), ZERO);
  const room = lines.reduce((sum, l) => sum.plus(Decimal.max(0, new Decimal(l.pickedQty).minus(packed.get(l.id) ?? 0))), ZERO);
  if (item.qty.greaterThan(room)) throw new AppError('OVERPACK_NOT_ALLOWED');
  const code = await checkItemCodes(trx, scope, item, lines[0].sku, input);

  // A label naming a batch packs only picked stock of the lots of that number.
  const lots = item.batch === undefined ? undefined : new Set(await repo.lotIdsOfNumber(trx, scope.projectId, item.skuId, item.batch));
  // Where the picked stock of the order's lines of the scanned SKU stands, read with the carton.
  const sourcesOf = places ?? new Map<number, PickedSource[]>();
  let left = item.qty;
  for (const line of lines) {
    if (left.isZero()) break;
    let lineRoom = Decimal.min(left, Decimal.max(0, new Decimal(line.pickedQty).minus(packed.get(line.id) ?? 0)));
    for (const source of sourcesOf.get(line.id) ?? []) {
      if (lots && !lots.has(source.lotId)) continue;
      if (lineRoom.isZero()) break;
      const there = new Decimal(source.qty).minus(packedFrom(line.id, source));
      const take = Decimal.min(lineRoom, there);
      if (!take.greaterThan(0)) continue;
      await moveToCarton(trx, scope, carton, line.id, source, take, code);
      packedSources.push({ soLineId: line.id, lotId: source.lotId, locationId: source.locationId, lpn: source.lpn, qty: take.toString() });
      read.lines.push({ carton_id: Number(carton.id), so_line_id: line.id, sku_id: source.skuId, lot_id: source.lotId, from_location_id: source.locationId, from_lpn: source.lpn, qty: take.toString() });
      lineRoom = lineRoom.minus(take);
      left = left.minus(take);
    }
  }
  // What is left has no picked stock to come from: not of the label's batch, or no longer where picking put it.
  if (left.greaterThan(0)) throw new AppError('NO_PICKED_STOCK');
  return packAnswer(trx, order, read);
}

interface Source {
  ownerId: number;
  skuId: number;
  lotId: number;
  locationId: number;
  lpn: string;
}

/**
 * Picked stock moves from where it stood onto the carton's licence plate at the same location, and
 * stays picked. Nothing of the two writes is needed back (the answer is made from what was read),
 * so both are sent without waiting for their answers: they go out with the commit (docs/packing.md,
 * "Speed"), which fails with their error should one fail.
 */
async function moveToCarton(trx: Transaction<DB>, scope: StockScope, carton: CartonView, soLineId: number, source: Source, qty: Decimal, antiCounterfeitCode: string | null = null): Promise<void> {
  const reference = { type: 'pack', orderNo: carton.carton_no };
  const from = { ownerId: source.ownerId, skuId: source.skuId, lotId: source.lotId, locationId: source.locationId, lpn: source.lpn };
  await sendStockChanges(trx, scope, [
    { key: from, transType: 'move', onHand: qty.negated(), picked: qty.negated(), reference },
    { key: { ...from, lpn: carton.carton_no }, transType: 'move', onHand: qty, picked: qty, reference },
  ]);
  await repo.addCartonLine(
    trx,
    {
      carton_id: Number(carton.id),
      so_line_id: soLineId,
      owner_id: source.ownerId,
      sku_id: source.skuId,
      lot_id: source.lotId,
      from_location_id: source.locationId,
      from_lpn: source.lpn,
      qty: qty.toString(),
      anti_counterfeit_code: antiCounterfeitCode,
    },
    scope.operator,
    { deferred: true },
  );
}

/**
 * `/pack/scan/remove`: takes qty of the scanned item out of the open carton; its stock goes back where
 * it came from. An empty carton has nothing to take out (PACK_CARTON_EMPTY); more than the carton
 * holds of the item is refused (NOT_ENOUGH_TO_REMOVE).
 */
export async function removeItem(trx: Transaction<DB>, scope: StockScope, input: { cartonId: number; barcode: string; qty?: string }): Promise<PackAnswer> {
  const { carton, order } = await lockedCarton(trx, scope, input.cartonId);
  const lines = await repo.linesOfCartons(trx, [Number(carton.id)]);
  if (lines.length === 0) throw new AppError('PACK_CARTON_EMPTY', { cartonNo: carton.carton_no });
  const item = await scannedItem(trx, scope, order, input.barcode, input.qty);
  const held = lines.filter((l) => Number(l.sku_id) === item.skuId).reverse();
  const total = held.reduce((sum, l) => sum.plus(l.qty), ZERO);
  if (total.isZero() || item.qty.greaterThan(total)) throw new AppError('NOT_ENOUGH_TO_REMOVE');
  let left = item.qty;
  const reference = { type: 'unpack', orderNo: carton.carton_no };
  for (const line of held) {
    if (left.isZero()) break;
    const take = Decimal.min(left, line.qty);
    const back = { ownerId: Number(line.owner_id), skuId: Number(line.sku_id), lotId: Number(line.lot_id), locationId: Number(line.from_location_id), lpn: line.from_lpn };
    await applyStockChanges(trx, scope, [
      { key: { ...back, lpn: carton.carton_no }, transType: 'move', onHand: take.negated(), picked: take.negated(), reference },
      { key: back, transType: 'move', onHand: take, picked: take, reference },
    ]);
    await repo.takeFromCartonLine(trx, Number(line.id), new Decimal(line.qty).minus(take).toString(), scope.operator);
    left = left.minus(take);
  }
  return packAnswer(trx, order);
}

export interface CloseCartonInput {
  cartonId: number;
  cartonType?: string | null;
  grossWeight: string;
  netWeight: string;
  weightUom: string;
  length?: string | null;
  width?: string | null;
  height?: string | null;
}

/** A carton label queued for printing: the job and the printer it goes to. */
export interface QueuedLabel {
  jobId: number;
  printerId: number;
  printerName: string;
}

export interface LabelOptions {
  /** The database to send the label with once the transaction committed. */
  sendWith?: Kysely<DB>;
  /** The language of a PDF label's captions. */
  language?: Language;
}

/**
 * `/pack/scan/close`: closes the open carton with its weights and dimensions and gives it its SSCC
 * (extension digit 0); an empty carton cannot be closed. Once it has its SSCC its label is printed
 * on the warehouse's printer for automatic carton labels, in the same transaction; without such a
 * printer nothing is printed. The answer says which label job was queued (`label`), or null.
 */
export async function closeCartonOf(trx: Transaction<DB>, scope: StockScope, input: CloseCartonInput, options: LabelOptions = {}): Promise<PackAnswer & { label: QueuedLabel | null }> {
  const { carton, order } = await lockedCarton(trx, scope, input.cartonId);
  if ((await repo.linesOfCartons(trx, [Number(carton.id)])).length === 0) throw new AppError('CARTON_EMPTY', { cartonNo: carton.carton_no });
  const details: Array<{ field: string; code: 'FIELD_FOREIGN' | 'FIELD_RANGE' }> = [];
  const cartonType = input.cartonType === undefined ? carton.carton_type : input.cartonType?.trim() || null;
  if (cartonType !== null && cartonType !== carton.carton_type && !(await isActiveCode(trx, CARTON_TYPE, cartonType))) details.push({ field: 'cartonType', code: 'FIELD_FOREIGN' });
  const weightUom = input.weightUom.trim();
  if (!(await isActiveCode(trx, WEIGHT_UOM, weightUom))) details.push({ field: 'weightUom', code: 'FIELD_FOREIGN' });
  // What is in the carton cannot weigh more than the carton with it.
  if (new Decimal(input.netWeight).greaterThan(input.grossWeight)) details.push({ field: 'netWeight', code: 'FIELD_RANGE' });
  if (details.length > 0) throw new AppError('VALIDATION_FAILED', {}, details);
  // The carton gets its SSCC as it is closed: its content is final, and a carton given up while open used none.
  const sscc = carton.sscc ?? (await nextSscc(trx, { warehouseId: scope.warehouseId, extensionDigit: CARTON_SSCC_EXTENSION }));
  await repo.closeCarton(
    trx,
    Number(carton.id),
    { carton_type: cartonType, gross_weight: input.grossWeight, net_weight: input.netWeight, weight_uom: weightUom, length: input.length ?? null, width: input.width ?? null, height: input.height ?? null, sscc },
    scope.operator,
  );
  const label = () => cartonLabelOf(trx, scope, sscc);
  const jobId = await printLabel(trx, { warehouseId: scope.warehouseId, projectId: scope.projectId, by: scope.operator, kind: 'carton', label, auto: true, language: options.language }, { sendWith: options.sendWith });
  const printer = jobId === null ? null : await printerOfJob(trx, scope.warehouseId, jobId);
  return { ...(await packAnswer(trx, order)), label: jobId === null || !printer ? null : { jobId, printerId: printer.id, printerName: printer.name } };
}

/**
 * `/scanPack/closeOrder`: check-complete. Every carton of the order must be closed and something
 * packed; the order becomes packed when it was fully picked and every line's picked qty is packed,
 * partially packed otherwise (the status table decides whether the order may move there).
 */
export async function checkComplete(trx: Transaction<DB>, scope: StockScope, soId: number, events?: EventBus): Promise<PackAnswer> {
  const order = await lockedOrder(trx, scope, soId);
  assertPackable(order, true);
  const cartons = await repo.cartonsOfOrder(trx, order.id);
  const open = cartons.find((c) => c.status === 'open');
  if (open) throw new AppError('CARTON_OPEN', { cartonNo: open.carton_no });
  const packed = await repo.packedOfLines(trx, order.lines.map((l) => l.id));
  if (packed.size === 0) throw new AppError('PACK_NOTHING_PACKED', { orderNo: order.orderNo });
  // Packed only when the whole order was picked and all of it packed; packing what a partly picked
  // order has leaves it partly packed.
  const complete = order.status === 'picked' && order.lines.every((l) => new Decimal(packed.get(l.id) ?? 0).greaterThanOrEqualTo(l.pickedQty));
  const status = await setPackingStatus(trx, scope, order.id, complete ? 'packed' : 'partial_packed');
  await events?.emit(trx, 'packing.checkCompleted', { soId: order.id, projectId: scope.projectId, warehouseId: scope.warehouseId });
  return packAnswer(trx, { ...order, status });
}

/** `GET /pack/carton/type` and `GET /pack/scan/wgtUom`: the codes with their description in the caller's language. */
export function codeList(db: Kysely<DB>, codeType: typeof CARTON_TYPE | typeof WEIGHT_UOM, language: Language) {
  return activeCodes(db, codeType, language);
}

export interface CancelCheckCompleteInput {
  soId: number;
  /** Remove all packed cartons: their stock goes back where picking put it, and the cartons are gone. */
  removeCartons: boolean;
  /** Move the cancelled stock back to the original location: every pick of the order is undone (allocated again where it was picked from). */
  moveStockBack: boolean;
}

export interface CancelCheckCompleteAnswer {
  order: { id: number; orderNo: string; status: string };
  removedCartons: string[];
  unpacked: string;
  movedBack: boolean;
}

/**
 * `/so/cancelCheckComplete`: cancels the check-complete of a packed or partially packed order, doing
 * what the two questions were answered. Removing the packed cartons takes every carton of the order
 * apart: its stock goes from the carton back to the place picking put it, and the carton is gone
 * (a carton on a pallet must come off it first; its SSCC is never given again). Moving the
 * cancelled stock back (only with the cartons removed) also undoes the picks: the stock goes back to
 * the location it was picked from, allocated to the order again. Without either the cartons stay as
 * they are and the order may be packed on. The order's status is recomputed from its lines (picked,
 * partially picked, or allocated after moving back). All in the caller's transaction.
 */
export async function cancelCheckComplete(trx: Transaction<DB>, scope: StockScope, input: CancelCheckCompleteInput): Promise<CancelCheckCompleteAnswer> {
  if (input.moveStockBack && !input.removeCartons) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'moveStockBack', code: 'FIELD_RANGE' }]);
  const order = await lockedOrder(trx, scope, input.soId);
  let status = await cancelPackingStatus(trx, scope, order.id);
  const removed: string[] = [];
  let unpacked = ZERO;
  if (input.removeCartons) {
    const cartons = await repo.cartonsOfOrder(trx, order.id);
    const onPallet = cartons.find((c) => c.pallet_id !== null);
    if (onPallet) {
      const palletNo = (await repo.palletNosOf(trx, [Number(onPallet.pallet_id)])).get(Number(onPallet.pallet_id)) ?? '';
      throw new AppError('CARTON_ON_PALLET', { cartonNo: onPallet.carton_no, palletNo });
    }
    for (const seen of cartons) {
      const carton = (await repo.findCarton(trx, scope, Number(seen.id), true))!;
      const reference = { type: 'unpack', orderNo: carton.carton_no };
      for (const line of await repo.linesOfCartons(trx, [Number(carton.id)])) {
        const back = { ownerId: Number(line.owner_id), skuId: Number(line.sku_id), lotId: Number(line.lot_id), locationId: Number(line.from_location_id), lpn: line.from_lpn };
        const qty = new Decimal(line.qty);
        await applyStockChanges(trx, scope, [
          { key: { ...back, lpn: carton.carton_no }, transType: 'move', onHand: qty.negated(), picked: qty.negated(), reference },
          { key: back, transType: 'move', onHand: qty, picked: qty, reference },
        ]);
        unpacked = unpacked.plus(qty);
      }
      await repo.deleteCarton(trx, Number(carton.id));
      removed.push(carton.carton_no);
    }
    if (input.moveStockBack) status = await unpickOrder(trx, scope, order.id);
  }
  return { order: { id: order.id, orderNo: order.orderNo, status }, removedCartons: removed, unpacked: unpacked.toString(), movedBack: input.moveStockBack };
}

/** A GTIN-14 of a barcode that is a GTIN (8, 12, 13 or 14 digits), padded with leading zeros. */
function gtin14(barcode: string): string | undefined {
  return /^([0-9]{8}|[0-9]{12,14})$/.test(barcode) ? barcode.padStart(14, '0') : undefined;
}

/**
 * What the label of a closed carton shows (printing's CartonLabel), by its carton number or SSCC in
 * the scope: SSCC, ship-to, order number, carton x of y among the order's cartons, and, when the
 * carton holds one SKU, its GTIN, its lot and expiry when of one lot, and its qty. NO_RECORD for a
 * carton not in the scope; CARTON_OPEN for a carton without an SSCC yet.
 */
export async function cartonLabelOf(db: Kysely<DB> | Transaction<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, cartonNoOrSscc: string): Promise<CartonLabel> {
  const carton = await repo.findCartonByCode(db, scope, cartonNoOrSscc.trim());
  if (!carton) throw new AppError('NO_RECORD');
  if (carton.sscc === null) throw new AppError('CARTON_OPEN', { cartonNo: carton.carton_no });
  const shipTo = await shipToOfOrder(db, scope, Number(carton.so_id));
  if (!shipTo) throw new AppError('NO_RECORD');
  const cartons = await repo.cartonsOfOrder(db, Number(carton.so_id));
  const lines = await repo.linesOfCartons(db, [Number(carton.id)]);
  const label: CartonLabel = {
    sscc: carton.sscc,
    shipTo: { name: shipTo.name, lines: shipTo.lines },
    orderNo: shipTo.orderNo,
    cartonNo: cartons.findIndex((c) => Number(c.id) === Number(carton.id)) + 1,
    cartonCount: cartons.length,
  };
  const skus = new Set(lines.map((l) => Number(l.sku_id)));
  if (skus.size === 1) {
    const [skuId] = [...skus];
    const qty = lines.reduce((sum, l) => sum.plus(l.qty), ZERO);
    const gtin = (await repo.barcodesOf(db, skuId)).map(gtin14).find((g) => g !== undefined);
    const lots = new Set(lines.map((l) => Number(l.lot_id)));
    const lot = lots.size === 1 ? await repo.lotOf(db, [...lots][0]) : undefined;
    label.content = {
      ...(gtin ? { gtin } : {}),
      ...(lot?.lotNo ? { lot: lot.lotNo } : {}),
      ...(lot?.expiry ? { expiry: lot.expiry } : {}),
      ...(qty.isInteger() ? { qty: qty.toNumber() } : {}),
    };
  }
  return label;
}
