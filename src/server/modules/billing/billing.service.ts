import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { billableLedgerRows, storageSnapshotRows, type BillableLedgerRow, type StorageSnapshotRow } from '../inventory/index.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { billableOrders, markOrdersBilled, type BillableOrder } from '../outbound/index.js';
import {
  billedOrderSources,
  billedSourceIds,
  contractTariffs,
  currencyDecimals,
  deleteLines,
  exchangeRateOn,
  findContract,
  findHeader,
  findLine,
  findOwner,
  headerLines,
  insertHeader,
  insertLine,
  lineSources,
  lockHeader,
  recordBilledEvents,
  releaseBilledEvents,
  skuMeasures,
  updateHeader,
  type NewLine,
  type NewSource,
  type SkuMeasures,
  type TariffRow,
} from './billing.repository.js';
import type { BillBase, ChargeMethod, SourceKind } from './billing.tables.js';

/**
 * The billing run and the life of a bill. A run computes, for a customer (owner) of a project and a
 * period, one bill line per tariff line of the customer's contract from what happened in the
 * period: receipts (ledger `receive` rows) and shipments (ledger `ship` rows) for handling, the
 * daily storage snapshot for storage, outbound orders and their lines for order handling, a
 * fixed fee once per calendar month and a minimum charge topping the bill up. Every line keeps what
 * it counted. Running a bill id again while the bill is a draft replaces it; confirming records
 * every counted event as billed under the line's charge code, so no later bill counts it again,
 * and refuses when another confirmed bill already has one of them. Posting gives the invoice
 * number (numbering rule INVOICE) and date; a posted bill is read only.
 */

export interface BillingScope {
  projectId: number;
  by: string;
}

export interface RunInput {
  ownerId: number;
  billId: string;
  cutoffDate: string;
  periodFrom: string;
  periodTo: string;
  contractId?: number;
  /** The bill currency, when not the contract's: amounts are converted at the rate of the cut-off date. */
  billCurrency?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ZERO = new Decimal(0);

function validDay(value: string): boolean {
  if (!DAY.test(value) || value < '1900-01-01') return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** Checks a run's input: a bill id, real dates, the period's start before its end, the cut-off not before the start. */
export function checkRunInput(input: RunInput): RunInput {
  const billId = (input.billId ?? '').trim();
  if (billId === '') throw new AppError('BILL_ID_REQUIRED');
  if (!validDay(input.periodFrom) || !validDay(input.periodTo) || input.periodFrom >= input.periodTo) {
    throw new AppError('BILL_PERIOD_INVALID', { from: input.periodFrom, to: input.periodTo });
  }
  if (!validDay(input.cutoffDate) || input.cutoffDate < input.periodFrom) throw new AppError('BILL_CUTOFF_INVALID', { cutoff: input.cutoffDate, from: input.periodFrom });
  return { ...input, billId };
}

/** One counted event: what it is, and the quantity it adds under the tariff's method. */
interface Counted {
  kind: SourceKind;
  id: number;
  day: string | null;
  ref: string | null;
  qty: Decimal;
}

function dec(value: string | null | undefined): Decimal | null {
  if (value === null || value === undefined || value === '') return null;
  const d = new Decimal(value);
  return d.isZero() ? null : d;
}

function volumeM3(m: SkuMeasures | undefined): Decimal {
  if (!m) return ZERO;
  const volume = dec(m.volumeCm3);
  if (volume) return volume.div(1_000_000);
  const [l, w, h] = [dec(m.lengthCm), dec(m.widthCm), dec(m.heightCm)];
  return l && w && h ? l.times(w).times(h).div(1_000_000) : ZERO;
}

function palletQty(m: SkuMeasures | undefined): Decimal | null {
  const cases = dec(m?.caseQty);
  const perPallet = dec(m?.palletCases);
  return cases && perPallet ? cases.times(perPallet) : null;
}

/** The quantity one unit-carrying event (a ledger row, a snapshot row) adds under a method. */
function measured(method: ChargeMethod, qty: Decimal, m: SkuMeasures | undefined, pallets: number | null): Decimal {
  switch (method) {
    case 'per_unit':
      return qty;
    case 'per_carton': {
      const cases = dec(m?.caseQty);
      return cases ? qty.div(cases).ceil() : qty;
    }
    case 'per_pallet':
    case 'per_pallet_day': {
      if (pallets !== null && pallets > 0) return new Decimal(pallets);
      const size = palletQty(m);
      return size ? qty.div(size).ceil() : new Decimal(1);
    }
    case 'per_cbm':
      return qty.times(volumeM3(m));
    case 'per_kg':
      return qty.times(dec(m?.grossWeightKg) ?? ZERO);
    case 'per_line':
      return new Decimal(1);
    default:
      return ZERO;
  }
}

function countLedger(method: ChargeMethod, rows: readonly BillableLedgerRow[], measures: Map<number, SkuMeasures>): Counted[] {
  const seenOrders = new Set<string>();
  return rows.map((r) => {
    const ref = [r.referenceType, r.orderNo, r.referenceLine].filter((p) => p !== null && p !== '').join(' ');
    let qty: Decimal;
    if (method === 'per_order') {
      // An order (document number) counts once, on its first row; a row of no document counts alone.
      const key = r.orderNo ? `${r.referenceType ?? ''}|${r.orderNo}` : `row|${r.id}`;
      qty = seenOrders.has(key) ? ZERO : new Decimal(1);
      seenOrders.add(key);
    } else {
      qty = measured(method, new Decimal(r.qty), measures.get(r.skuId), null);
    }
    return { kind: 'ledger', id: r.id, day: r.transTime.toISOString().slice(0, 10), ref: ref || null, qty };
  });
}

/**
 * A snapshot row under a method: per pallet and pallet-day take the pallets the snapshot counted,
 * per cubic metre and kg the cubic metres and kilograms it kept (the SKU's measures on the day);
 * when the snapshot has none of them, the SKU's measures now.
 */
function snapshotQty(method: ChargeMethod, r: StorageSnapshotRow, m: SkuMeasures | undefined): Decimal {
  const qty = new Decimal(r.onHandQty);
  switch (method) {
    case 'per_pallet':
    case 'per_pallet_day':
      return measured(method, qty, m, r.palletCount);
    case 'per_cbm':
      return dec(r.cbm) ?? measured(method, qty, m, null);
    case 'per_kg':
      return dec(r.weightKg) ?? measured(method, qty, m, null);
    default:
      return measured(method, qty, m, null);
  }
}

function countSnapshots(method: ChargeMethod, rows: readonly StorageSnapshotRow[], measures: Map<number, SkuMeasures>): Counted[] {
  return rows.map((r) => ({ kind: 'snapshot', id: r.id, day: r.day, ref: null, qty: snapshotQty(method, r, measures.get(r.skuId)) }));
}

function countOrders(base: BillBase, rows: readonly BillableOrder[]): Counted[] {
  return rows.map((o) => ({ kind: 'order', id: o.id, day: o.createdAt.toISOString().slice(0, 10), ref: o.orderNo, qty: new Decimal(base === 'lines' ? o.lineCount : 1) }));
}

/** The month a fixed fee is charged for, as a number (202611): a fixed fee is billed once per calendar month. */
function monthKey(day: string): number {
  return Number(day.slice(0, 4)) * 100 + Number(day.slice(5, 7));
}

interface Window {
  projectId: number;
  ownerId: number;
  fromDay: string;
  /** The last day billed: the earlier of the period's end and the cut-off date. */
  toDay: string;
}

/** What the run reads, once per kind, whatever number of tariff lines use it. */
class Sources {
  private ledger = new Map<string, Promise<BillableLedgerRow[]>>();
  private snapshots?: Promise<StorageSnapshotRow[]>;
  private orders?: Promise<BillableOrder[]>;
  private measures = new Map<number, SkuMeasures>();

  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly window: Window,
  ) {}

  private range() {
    return { from: new Date(`${this.window.fromDay}T00:00:00Z`), until: new Date(`${nextDay(this.window.toDay)}T00:00:00Z`) };
  }

  ledgerRows(type: 'receive' | 'ship'): Promise<BillableLedgerRow[]> {
    let rows = this.ledger.get(type);
    if (!rows) {
      rows = billableLedgerRows(this.db, { projectId: this.window.projectId, ownerId: this.window.ownerId, ...this.range(), transTypes: [type] });
      this.ledger.set(type, rows);
    }
    return rows;
  }

  snapshotRows(): Promise<StorageSnapshotRow[]> {
    this.snapshots ??= storageSnapshotRows(this.db, { projectId: this.window.projectId, ownerId: this.window.ownerId, fromDay: this.window.fromDay, toDay: this.window.toDay });
    return this.snapshots;
  }

  orderRows(): Promise<BillableOrder[]> {
    this.orders ??= billableOrders(this.db, { projectId: this.window.projectId, ownerId: this.window.ownerId, ...this.range() });
    return this.orders;
  }

  async skuMeasures(skuIds: number[]): Promise<Map<number, SkuMeasures>> {
    const missing = skuIds.filter((id) => !this.measures.has(id));
    if (missing.length) for (const [id, m] of await skuMeasures(this.db, this.window.projectId, missing)) this.measures.set(id, m);
    return this.measures;
  }
}

async function countedOf(tariff: TariffRow, sources: Sources, window: Window): Promise<Counted[]> {
  const method = tariff.charge_method;
  switch (tariff.bill_base) {
    case 'received_qty':
    case 'shipped_qty': {
      const rows = await sources.ledgerRows(tariff.bill_base === 'received_qty' ? 'receive' : 'ship');
      return countLedger(method, rows, await sources.skuMeasures(rows.map((r) => r.skuId)));
    }
    case 'on_hand_snapshot': {
      const rows = await sources.snapshotRows();
      return countSnapshots(method, rows, await sources.skuMeasures(rows.map((r) => r.skuId)));
    }
    case 'orders':
    case 'lines':
      return countOrders(tariff.bill_base, await sources.orderRows());
    case 'none':
      return [{ kind: 'period', id: monthKey(window.fromDay), day: window.fromDay, ref: window.fromDay.slice(0, 7), qty: new Decimal(1) }];
  }
}

export interface ComputedLine {
  line: Omit<NewLine, 'line_no' | 'local_amount'>;
  sources: NewSource[];
}

/** Amount of a quantity under a tariff: the rate up to the overflow threshold, the overflow rate above it; answers the split. */
export function priceOf(qty: Decimal, tariff: Pick<TariffRow, 'rate' | 'overflow_threshold' | 'overflow_rate'>): Array<{ qty: Decimal; rate: Decimal; overflow: boolean }> {
  const rate = new Decimal(tariff.rate);
  const threshold = tariff.overflow_threshold === null ? null : new Decimal(tariff.overflow_threshold);
  if (threshold === null || tariff.overflow_rate === null || qty.lte(threshold)) return [{ qty, rate, overflow: false }];
  return [
    { qty: threshold, rate, overflow: false },
    { qty: qty.minus(threshold), rate: new Decimal(tariff.overflow_rate), overflow: true },
  ];
}

/** What a bill line takes from its tariff line: charge code, method, base, unit, account (else the charge code's) and description. */
function lineOfTariff(tariff: TariffRow, currency: string) {
  return {
    tariff_id: Number(tariff.id),
    charge_code_id: Number(tariff.charge_code_id),
    charge_code: tariff.charge_code,
    charge_method: tariff.charge_method,
    bill_base: tariff.bill_base,
    unit: tariff.bill_unit,
    currency_code: currency,
    account_code: tariff.account_code ?? tariff.charge_account_code,
    description: tariff.description ?? tariff.charge_description,
  };
}

/** The bill lines of a contract's tariffs for a window: one per tariff with something to charge (two above an overflow threshold), then the minimum charge. */
export async function computeLines(db: Kysely<DB> | Transaction<DB>, window: Window, tariffs: readonly TariffRow[], currency: string, decimals: number): Promise<ComputedLine[]> {
  const sources = new Sources(db, window);
  const round = (d: Decimal) => d.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
  const lines: ComputedLine[] = [];
  let total = ZERO;
  for (const tariff of tariffs) {
    if (tariff.charge_type === 'minimum') continue;
    const all = await countedOf(tariff, sources, window);
    const billed = await billedSourceIds(db, window.projectId, Number(tariff.charge_code_id), all[0]?.kind ?? 'ledger', all.map((c) => c.id));
    const counted = all.filter((c) => !billed.has(c.id));
    const qty = counted.reduce((sum, c) => sum.plus(c.qty), ZERO).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
    if (qty.lte(0)) continue;
    const parts = priceOf(qty, tariff);
    const amounts = parts.map((p) => round(p.qty.times(p.rate)));
    const minimum = tariff.min_charge === null ? null : new Decimal(tariff.min_charge);
    const sum = amounts.reduce((a, b) => a.plus(b), ZERO);
    const topUp = minimum && sum.lt(minimum) ? round(minimum.minus(sum)) : ZERO;
    const base = lineOfTariff(tariff, currency);
    parts.forEach((part, i) => {
      lines.push({
        line: {
          ...base,
          qty: part.qty.toFixed(4),
          rate: part.rate.toString(),
          amount: amounts[i].plus(i === 0 ? topUp : ZERO).toFixed(decimals),
          reference: part.overflow ? 'overflow' : topUp.gt(0) && i === 0 ? 'minimum' : null,
        },
        // The events are on the first line of the tariff; an overflow line charges the same events above the threshold.
        sources: i === 0 ? counted.map((c) => ({ source_kind: c.kind, source_id: c.id, source_day: c.day, source_ref: c.ref, qty: c.qty.toFixed(4) })) : [],
      });
    });
    total = total.plus(sum).plus(topUp);
  }
  for (const tariff of tariffs.filter((t) => t.charge_type === 'minimum')) {
    const minimum = new Decimal(tariff.rate);
    if (total.gte(minimum)) continue;
    const amount = round(minimum.minus(total));
    lines.push({
      line: {
        ...lineOfTariff(tariff, currency),
        qty: '1.0000',
        rate: amount.toString(),
        amount: amount.toFixed(decimals),
        reference: 'minimum',
      },
      sources: [],
    });
    total = total.plus(amount);
  }
  return lines;
}

/**
 * The bill currency, its decimals and the rate from the contract currency: 1 for the contract's own
 * currency, else the latest rate of the pair dated on or before the cut-off date (BILL_RATE_MISSING
 * when there is none; BILL_CURRENCY_UNKNOWN for a currency not in the list).
 */
async function localCurrency(trx: Transaction<DB>, projectId: number, contractCurrency: string, billCurrency: string | undefined, cutoffDate: string) {
  const currency = (billCurrency ?? '').trim() || contractCurrency;
  const decimals = await currencyDecimals(trx, currency);
  if (decimals === undefined) throw new AppError('BILL_CURRENCY_UNKNOWN', { currency });
  if (currency === contractCurrency) return { currency, decimals, rate: new Decimal(1) };
  const found = await exchangeRateOn(trx, projectId, contractCurrency, currency, cutoffDate);
  if (!found) throw new AppError('BILL_RATE_MISSING', { from: contractCurrency, to: currency, day: cutoffDate });
  return { currency, decimals, rate: new Decimal(found.rate) };
}

/**
 * Runs billing for a customer and period under the bill id: a new draft bill, or the draft of that
 * id computed again. A confirmed or posted bill of the id is refused.
 */
export async function runBilling(trx: Transaction<DB>, scope: BillingScope, raw: RunInput) {
  const input = checkRunInput(raw);
  const owner = await findOwner(trx, scope.projectId, input.ownerId);
  if (!owner) throw new AppError('NO_RECORD');
  const contract = await findContract(trx, { projectId: scope.projectId, ownerId: owner.id, contractId: input.contractId, from: input.periodFrom, to: input.periodTo });
  if (!contract) throw new AppError('BILL_NO_CONTRACT', { owner: owner.code });
  const decimals = await currencyDecimals(trx, contract.currency_code);
  if (decimals === undefined) throw new AppError('BILL_CURRENCY_UNKNOWN', { currency: contract.currency_code });

  const existing = await lockHeader(trx, scope.projectId, { billId: input.billId });
  if (existing && existing.status !== 'draft') throw new AppError('BILL_ID_TAKEN', { billId: input.billId });

  const toDay = input.cutoffDate < input.periodTo ? input.cutoffDate : input.periodTo;
  const window: Window = { projectId: scope.projectId, ownerId: owner.id, fromDay: input.periodFrom, toDay };
  const tariffs = await contractTariffs(trx, scope.projectId, Number(contract.id), input.periodFrom, input.periodTo);
  const computed = await computeLines(trx, window, tariffs, contract.currency_code, decimals);
  const total = computed.reduce((sum, c) => sum.plus(c.line.amount), ZERO).toFixed(decimals);
  const local = await localCurrency(trx, scope.projectId, contract.currency_code, input.billCurrency, input.cutoffDate);
  const localAmounts = computed.map((c) => new Decimal(c.line.amount).times(local.rate).toDecimalPlaces(local.decimals, Decimal.ROUND_HALF_UP));
  const localTotal = localAmounts.reduce((sum, a) => sum.plus(a), ZERO).toFixed(local.decimals);

  const header = {
    owner_id: owner.id,
    contract_id: Number(contract.id),
    cutoff_date: input.cutoffDate,
    period_from: input.periodFrom,
    period_to: input.periodTo,
    currency_code: contract.currency_code,
    total_amount: total,
    local_currency_code: local.currency,
    local_total_amount: localTotal,
    exchange_rate: local.rate.toString(),
    updated_by: scope.by,
  };
  let headerId: number;
  if (existing) {
    headerId = Number(existing.id);
    await deleteLines(trx, headerId);
    await updateHeader(trx, headerId, header);
  } else {
    const created = await insertHeader(trx, {
      ...header,
      project_id: scope.projectId,
      bill_id: input.billId,
      confirm_date: null,
      post_date: null,
      invoice_no: null,
      invoice_date: null,
      bill_to_name: owner.name,
      address1: owner.address1,
      address2: owner.address2,
      address3: null,
      address4: null,
      city: owner.city,
      province: owner.province,
      country: owner.country,
      zip: owner.postal,
      contact: owner.contact_name,
      phone: owner.phone,
      fax: null,
      email: owner.email,
      created_by: scope.by,
    });
    headerId = Number(created.id);
  }
  let lineNo = 0;
  for (const { line, sources } of computed) {
    await insertLine(trx, { id: headerId, projectId: scope.projectId, by: scope.by }, { ...line, line_no: lineNo + 1, local_amount: localAmounts[lineNo].toFixed(local.decimals) }, sources);
    lineNo += 1;
  }
  return billOf(trx, scope.projectId, headerId);
}

/** A bill with its lines. */
export async function billOf(db: Kysely<DB> | Transaction<DB>, projectId: number, id: number) {
  const header = await findHeader(db, projectId, id);
  if (!header) throw new AppError('NO_RECORD');
  return { header, lines: await headerLines(db, id) };
}

/** Draft to confirmed: every event the lines counted is recorded as billed; refused when another confirmed bill has one. */
export async function confirmBill(trx: Transaction<DB>, scope: BillingScope, id: number) {
  const header = await lockHeader(trx, scope.projectId, { id });
  if (!header) throw new AppError('NO_RECORD');
  if (header.status !== 'draft') throw new AppError('BILL_NOT_DRAFT', { billId: header.bill_id });
  const { recorded, events } = await recordBilledEvents(trx, scope.projectId, id);
  if (recorded < events) throw new AppError('BILL_EVENTS_ALREADY_BILLED', { billId: header.bill_id, count: events - recorded });
  await updateHeader(trx, id, { status: 'confirmed', confirm_date: new Date(), updated_by: scope.by });
  return billOf(trx, scope.projectId, id);
}

/**
 * Confirmed back to draft, before posting: the events the bill recorded as billed are released, so
 * a new run (of this bill id or another) counts them again. A draft is refused (BILL_NOT_CONFIRMED),
 * a posted bill too (BILL_POSTED_READ_ONLY).
 */
export async function cancelConfirmedBill(trx: Transaction<DB>, scope: BillingScope, id: number) {
  const header = await lockHeader(trx, scope.projectId, { id });
  if (!header) throw new AppError('NO_RECORD');
  if (header.status !== 'confirmed') throw new AppError(header.status === 'posted' ? 'BILL_POSTED_READ_ONLY' : 'BILL_NOT_CONFIRMED', { billId: header.bill_id });
  const released = await releaseBilledEvents(trx, scope.projectId, id);
  await updateHeader(trx, id, { status: 'draft', confirm_date: null, updated_by: scope.by });
  return { ...(await billOf(trx, scope.projectId, id)), released };
}

/**
 * The order numbers of the shipments a bill's shipment lines counted: its ledger `ship` rows that
 * refer to a sales order, read again over the bill's days.
 */
async function shippedOrderNos(trx: Transaction<DB>, header: { project_id: number; owner_id: number; period_from: string; period_to: string; cutoff_date: string }, ledgerIds: readonly number[]) {
  if (ledgerIds.length === 0) return [];
  const wanted = new Set(ledgerIds);
  const toDay = header.cutoff_date < header.period_to ? header.cutoff_date : header.period_to;
  const rows = await billableLedgerRows(trx, {
    projectId: Number(header.project_id),
    ownerId: Number(header.owner_id),
    from: new Date(`${header.period_from}T00:00:00Z`),
    until: new Date(`${nextDay(toDay)}T00:00:00Z`),
    transTypes: ['ship'],
  });
  return [...new Set(rows.filter((r) => wanted.has(r.id) && r.orderNo && (r.referenceType ?? '').toLowerCase() === 'so').map((r) => r.orderNo as string))];
}

/**
 * Confirmed to posted: the invoice number of the numbering rule INVOICE and today's date as the
 * invoice date. The orders the bill charged (its order and line counts, and the sales orders of the
 * shipments it counted) become `billed` where their status allows it (delivered orders).
 */
export async function postBill(trx: Transaction<DB>, scope: BillingScope, id: number, at: Date = new Date()) {
  const header = await lockHeader(trx, scope.projectId, { id });
  if (!header) throw new AppError('NO_RECORD');
  if (header.status !== 'confirmed') throw new AppError(header.status === 'posted' ? 'BILL_POSTED_READ_ONLY' : 'BILL_NOT_CONFIRMED', { billId: header.bill_id });
  const invoiceNo = await nextDocumentNumber(trx, 'INVOICE', { projectId: scope.projectId }, at);
  await updateHeader(trx, id, { status: 'posted', post_date: at, invoice_no: invoiceNo, invoice_date: at.toISOString().slice(0, 10), updated_by: scope.by });
  const { orderIds, shipLedgerIds } = await billedOrderSources(trx, id);
  const billedOrders = await markOrdersBilled(trx, {
    projectId: scope.projectId,
    ownerId: Number(header.owner_id),
    orderIds,
    orderNos: await shippedOrderNos(trx, header, shipLedgerIds),
    by: scope.by,
  });
  return { ...(await billOf(trx, scope.projectId, id)), billedOrders };
}

/** What a bill line counted: ledger rows, orders, snapshot rows (with their day) or the month of a fixed fee. */
export async function drillDown(db: Kysely<DB>, projectId: number, lineId: number) {
  const line = await findLine(db, projectId, lineId);
  if (!line) throw new AppError('NO_RECORD');
  return { lineId, sources: await lineSources(db, projectId, lineId) };
}
