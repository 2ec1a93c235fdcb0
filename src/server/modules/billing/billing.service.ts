import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { billableLedgerRows } from '../inventory/index.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { markOrdersBilled } from '../outbound/index.js';
import { dropUncountedEvents, eventGroupOf, prepareRun, excludeBilledEvents, groupQuantities, insertRunEvents, type EventGroup, type EventWindow } from './billing-events.repository.js';
import {
  billedOrderSources,
  contractTariffs,
  currencyDecimals,
  deleteLine,
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
  tryLockCustomerRun,
  recordBilledEvents,
  releaseBilledEvents,
  updateHeader,
  updateLine,
  type NewLine,
  type TariffRow,
} from './billing.repository.js';

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

/** A stage of a run, for its progress: `done` of `total` steps. */
export type RunProgress = (stage: string, done: number, total: number) => void;

interface LineTarget {
  projectId: number;
  headerId: number;
  by: string;
  /** The contract currency's decimals (amounts), and the bill currency's rate and decimals (local amounts). */
  decimals: number;
  rate: Decimal;
  localDecimals: number;
  progress?: RunProgress;
}

/**
 * Writes the bill lines of a contract's tariffs for a window, set-based: one bill line per tariff
 * line (two above an overflow threshold; none when nothing is to be charged), then the minimum
 * charge. Per event group the run's events are written once (`insertRunEvents`) and every line of
 * the group sums them under its own charge method in one pass (`groupQuantities`); the server only
 * prices the per-line figures with decimal.js. Answers the base and local totals.
 */
export async function writeLines(trx: Transaction<DB>, target: LineTarget, window: EventWindow, tariffs: readonly TariffRow[], currency: string) {
  const round = (d: Decimal) => d.toDecimalPlaces(target.decimals, Decimal.ROUND_HALF_UP);
  const local = (amount: Decimal) => amount.times(target.rate).toDecimalPlaces(target.localDecimals, Decimal.ROUND_HALF_UP);
  const header = { id: target.headerId, projectId: target.projectId, by: target.by };
  const counting = tariffs.filter((t) => t.charge_type !== 'minimum');
  const groups = [...new Set(counting.map((t) => eventGroupOf(t.bill_base)))];
  const steps = groups.length + counting.length + 1;
  let step = 0;
  const report = (stage: string) => target.progress?.(stage, ++step, steps);

  await prepareRun(trx);
  // The lines are written first (numbered in the negative until they are priced), so that their events can be counted for them.
  const written: Array<{ tariff: TariffRow; lineId: number; group: EventGroup; qty: Decimal }> = [];
  for (const [i, tariff] of counting.entries()) {
    const group = eventGroupOf(tariff.bill_base);
    const lineId = await insertLine(trx, header, { ...lineOfTariff(tariff, currency), line_no: -(i + 1), qty: '0', rate: tariff.rate, amount: '0', local_amount: '0', reference: null, event_group: group });
    written.push({ tariff, lineId, group, qty: ZERO });
  }
  for (const group of groups) {
    const lines = written.filter((w) => w.group === group);
    const chargeCodeIds = [...new Set(lines.map((l) => Number(l.tariff.charge_code_id)))];
    await insertRunEvents(trx, target, group, window, {
      chargeCodeIds,
      perOrder: lines.some((l) => l.tariff.charge_method === 'per_order'),
      orderLines: lines.some((l) => l.tariff.bill_base === 'lines'),
    });
    // With one charge code the events it billed were left out already; with several, each line lists those its code billed.
    const excluded = new Set<number>();
    if (chargeCodeIds.length > 1) {
      for (const l of lines) {
        if ((await excludeBilledEvents(trx, { projectId: target.projectId, headerId: target.headerId, lineId: l.lineId, chargeCodeId: Number(l.tariff.charge_code_id), group })) > 0) excluded.add(l.lineId);
      }
    }
    const quantities = await groupQuantities(
      trx,
      target.headerId,
      group,
      lines.map((l) => ({ lineId: l.lineId, base: l.tariff.bill_base, method: l.tariff.charge_method, excluded: excluded.has(l.lineId) })),
    );
    lines.forEach((l, i) => (l.qty = new Decimal(quantities[i]).toDecimalPlaces(4, Decimal.ROUND_HALF_UP)));
    report(`events:${group}`);
  }

  let total = ZERO;
  let localTotal = ZERO;
  let lineNo = 0;
  const add = async (line: Omit<NewLine, 'line_no' | 'local_amount' | 'event_group'>) => {
    const localAmount = local(new Decimal(line.amount));
    localTotal = localTotal.plus(localAmount);
    lineNo += 1;
    return insertLine(trx, header, { ...line, line_no: lineNo, local_amount: localAmount.toFixed(target.localDecimals), event_group: null });
  };
  for (const { tariff, lineId, qty } of written) {
    report(`line:${tariff.charge_code}`);
    if (qty.lte(0)) {
      await deleteLine(trx, lineId);
      continue;
    }
    lineNo += 1;
    const base = lineOfTariff(tariff, currency);
    const parts = priceOf(qty, tariff);
    const amounts = parts.map((p) => round(p.qty.times(p.rate)));
    const minimum = tariff.min_charge === null ? null : new Decimal(tariff.min_charge);
    const sum = amounts.reduce((a, b) => a.plus(b), ZERO);
    const topUp = minimum && sum.lt(minimum) ? round(minimum.minus(sum)) : ZERO;
    const first = amounts[0].plus(topUp);
    const firstLocal = local(first);
    localTotal = localTotal.plus(firstLocal);
    await updateLine(trx, lineId, {
      line_no: lineNo,
      qty: parts[0].qty.toFixed(4),
      rate: parts[0].rate.toString(),
      amount: first.toFixed(target.decimals),
      local_amount: firstLocal.toFixed(target.localDecimals),
      reference: topUp.gt(0) ? 'minimum' : null,
    });
    // An overflow line charges the same events above the threshold; the events are on the first line.
    if (parts[1]) await add({ ...base, qty: parts[1].qty.toFixed(4), rate: parts[1].rate.toString(), amount: amounts[1].toFixed(target.decimals), reference: 'overflow' });
    total = total.plus(sum).plus(topUp);
  }
  await dropUncountedEvents(trx, target.headerId);
  for (const tariff of tariffs.filter((t) => t.charge_type === 'minimum')) {
    const minimum = new Decimal(tariff.rate);
    if (total.gte(minimum)) continue;
    const amount = round(minimum.minus(total));
    await add({ ...lineOfTariff(tariff, currency), qty: '1.0000', rate: amount.toString(), amount: amount.toFixed(target.decimals), reference: 'minimum' });
    total = total.plus(amount);
  }
  report('totals');
  return { total, localTotal, lines: lineNo };
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
export async function runBilling(trx: Transaction<DB>, scope: BillingScope, raw: RunInput, progress?: RunProgress) {
  const input = checkRunInput(raw);
  const owner = await findOwner(trx, scope.projectId, input.ownerId);
  if (!owner) throw new AppError('NO_RECORD');
  if (!(await tryLockCustomerRun(trx, scope.projectId, owner.id))) throw new AppError('BILL_RUN_RUNNING', { billId: input.billId, percent: 0 });
  const contract = await findContract(trx, { projectId: scope.projectId, ownerId: owner.id, contractId: input.contractId, from: input.periodFrom, to: input.periodTo });
  if (!contract) throw new AppError('BILL_NO_CONTRACT', { owner: owner.code });
  const decimals = await currencyDecimals(trx, contract.currency_code);
  if (decimals === undefined) throw new AppError('BILL_CURRENCY_UNKNOWN', { currency: contract.currency_code });

  const existing = await lockHeader(trx, scope.projectId, { billId: input.billId });
  if (existing && existing.status !== 'draft') throw new AppError('BILL_ID_TAKEN', { billId: input.billId });

  const toDay = input.cutoffDate < input.periodTo ? input.cutoffDate : input.periodTo;
  const window: EventWindow = { projectId: scope.projectId, ownerId: owner.id, fromDay: input.periodFrom, toDay };
  const tariffs = await contractTariffs(trx, scope.projectId, Number(contract.id), input.periodFrom, input.periodTo);
  const local = await localCurrency(trx, scope.projectId, contract.currency_code, input.billCurrency, input.cutoffDate);

  const header = {
    owner_id: owner.id,
    contract_id: Number(contract.id),
    cutoff_date: input.cutoffDate,
    period_from: input.periodFrom,
    period_to: input.periodTo,
    currency_code: contract.currency_code,
    total_amount: '0',
    local_currency_code: local.currency,
    local_total_amount: '0',
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
  const target = { projectId: scope.projectId, headerId, by: scope.by, decimals, rate: local.rate, localDecimals: local.decimals, progress };
  const { total, localTotal } = await writeLines(trx, target, window, tariffs, contract.currency_code);
  await updateHeader(trx, headerId, { total_amount: total.toFixed(decimals), local_total_amount: localTotal.toFixed(local.decimals) });
  return billOf(trx, scope.projectId, headerId);
}

/**
 * A bill with its lines, and the decimals of its two currencies (`contract`: the base amounts and
 * total; `bill`: the local amounts and total), by which its documents show the amounts.
 */
export async function billOf(db: Kysely<DB> | Transaction<DB>, projectId: number, id: number) {
  const header = await findHeader(db, projectId, id);
  if (!header) throw new AppError('NO_RECORD');
  const contract = (await currencyDecimals(db, header.currency_code)) ?? 2;
  const bill = header.local_currency_code === header.currency_code ? contract : ((await currencyDecimals(db, header.local_currency_code)) ?? 2);
  return { header, lines: await headerLines(db, id), decimals: { contract, bill } };
}

/** A confirmed or posted bill with its lines, for its invoice and export; a draft has no invoice yet (BILL_NOT_CONFIRMED). */
export async function issuedBillOf(db: Kysely<DB> | Transaction<DB>, projectId: number, id: number) {
  const bill = await billOf(db, projectId, id);
  if (bill.header.status === 'draft') throw new AppError('BILL_NOT_CONFIRMED', { billId: bill.header.bill_id });
  return bill;
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
