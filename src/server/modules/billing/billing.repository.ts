import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import { updateRowById } from '../../db/row-writes.js';
import type { Audit, DB, Numeric } from '../../db/schema.js';
import type { BillingHeaderTable, BillingLineTable } from './billing.tables.js';
import { customerRunLockName } from './billing-runs.repository.js';
import './billing.tables.js';

/** The billing area's SQL: its own tables, and (read model `billing.masters`) the owner, SKU measures and currency it bills with. */

type Db = Kysely<DB> | Transaction<DB>;

export async function findOwner(db: Db, projectId: number, ownerId: number) {
  return db
    .selectFrom('owner')
    .select(['id', 'code', 'name', 'contact_name', 'phone', 'email', 'address1', 'address2', 'city', 'province', 'country', 'postal'])
    .where('project_id', '=', projectId)
    .where('id', '=', ownerId)
    .executeTakeFirst();
}

export async function findOwnerByCode(db: Db, projectId: number, code: string) {
  return db.selectFrom('owner').select(['id']).where('project_id', '=', projectId).where('code', '=', code).executeTakeFirst();
}

/** Decimals of a currency (undefined when no such currency). */
export async function currencyDecimals(db: Db, code: string): Promise<number | undefined> {
  const row = await db.selectFrom('currency').select('decimals').where('code', '=', code).executeTakeFirst();
  return row ? Number(row.decimals) : undefined;
}

/** A contract of the owner in the project that is active and valid for some of the period; the one asked for, or the latest valid. */
export async function findContract(db: Db, input: { projectId: number; ownerId: number; contractId?: number; from: string; to: string }) {
  let query = db
    .selectFrom('billing_contract')
    .select(['id', 'contract_no', 'currency_code', 'owner_id'])
    .where('project_id', '=', input.projectId)
    .where('owner_id', '=', input.ownerId)
    .where('active', '=', true)
    .where('valid_from', '<=', input.to)
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>=', input.from)]));
  if (input.contractId !== undefined) query = query.where('id', '=', input.contractId);
  return query.orderBy('valid_from', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** The tariff lines of a contract valid for some of the period, with their charge code; by line number. */
export async function contractTariffs(db: Db, projectId: number, contractId: number, from: string, to: string) {
  return db
    .selectFrom('billing_tariff as t')
    .innerJoin('charge_code as c', 'c.id', 't.charge_code_id')
    .select([
      't.id',
      't.line_no',
      't.charge_code_id',
      't.description',
      't.charge_method',
      't.bill_base',
      't.bill_unit',
      't.rate',
      't.overflow_threshold',
      't.overflow_rate',
      't.min_charge',
      't.account_code',
      't.currency_code',
      'c.code as charge_code',
      'c.description as charge_description',
      'c.charge_type',
      'c.account_code as charge_account_code',
    ])
    .where('t.project_id', '=', projectId)
    .where('t.contract_id', '=', contractId)
    .where('c.active', '=', true)
    .where('t.valid_from', '<=', to)
    .where((eb) => eb.or([eb('t.valid_to', 'is', null), eb('t.valid_to', '>=', from)]))
    .orderBy('t.line_no')
    .execute();
}

export type TariffRow = Awaited<ReturnType<typeof contractTariffs>>[number];

/**
 * Takes the transaction's advisory lock of a customer's billing run, answering false when another
 * transaction (on any server) holds it: one run per customer at a time.
 */
export async function tryLockCustomerRun(trx: Transaction<DB>, projectId: number, ownerId: number): Promise<boolean> {
  const row = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${customerRunLockName(projectId, ownerId)}, 0)) as locked`.execute(trx);
  return row.rows[0]?.locked === true;
}

export async function lockHeader(trx: Transaction<DB>, projectId: number, where: { id: number } | { billId: string }) {
  let query = trx.selectFrom('billing_header').selectAll().where('project_id', '=', projectId);
  query = 'id' in where ? query.where('id', '=', where.id) : query.where('bill_id', '=', where.billId);
  return query.forUpdate().executeTakeFirst();
}

export async function findHeader(db: Db, projectId: number, id: number) {
  return db.selectFrom('billing_header').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function insertHeader(trx: Transaction<DB>, values: Insertable<BillingHeaderTable>) {
  return trx.insertInto('billing_header').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function updateHeader(trx: Transaction<DB>, id: number, values: Updateable<BillingHeaderTable>) {
  await updateRowById(trx, 'billing_header', id, values);
}

/** Deletes a bill's lines and the events its run counted (a line's exclusions go with it). */
export async function deleteLines(trx: Transaction<DB>, headerId: number) {
  await trx.deleteFrom('billing_run_event').where('header_id', '=', headerId).execute();
  await trx.deleteFrom('billing_line').where('header_id', '=', headerId).execute();
}

/** A bill line as a run writes it: the columns of `billing_line` but its keys and audit, numbers as decimal strings. */
export type NewLine = { [K in Exclude<keyof BillingLineTable, 'id' | 'project_id' | 'header_id' | keyof Audit>]: BillingLineTable[K] extends Numeric ? string : BillingLineTable[K] };

/** Writes a line (what it counts is written by the run's events, billing-events.repository.ts). */
export async function insertLine(trx: Transaction<DB>, header: { id: number; projectId: number; by: string }, line: NewLine) {
  const row = await trx
    .insertInto('billing_line')
    .values({ ...line, project_id: header.projectId, header_id: header.id, created_by: header.by, updated_by: header.by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateLine(trx: Transaction<DB>, lineId: number, values: Pick<NewLine, 'line_no' | 'qty' | 'rate' | 'amount' | 'local_amount' | 'reference'>) {
  await updateRowById(trx, 'billing_line', lineId, values);
}

/** Deletes a line (its exclusions go with it; the run drops events no line counts). */
export async function deleteLine(trx: Transaction<DB>, lineId: number) {
  await trx.deleteFrom('billing_line').where('id', '=', lineId).execute();
}

export async function headerLines(db: Db, headerId: number) {
  return db
    .selectFrom('billing_line')
    .select(['id', 'line_no', 'charge_code', 'description', 'charge_method', 'bill_base', 'qty', 'unit', 'rate', 'amount', 'currency_code', 'local_amount', 'account_code', 'reference'])
    .where('header_id', '=', headerId)
    .orderBy('line_no')
    .execute();
}

export async function lineSources(db: Db, projectId: number, lineId: number) {
  return db
    .selectFrom('billing_line_source')
    .select(['id', 'source_kind', 'source_id', 'source_ref', 'qty'])
    .select(sql<string | null>`to_char(source_day, 'YYYY-MM-DD')`.as('source_day'))
    .where('project_id', '=', projectId)
    .where('line_id', '=', lineId)
    .orderBy('id')
    .execute();
}

export async function findLine(db: Db, projectId: number, lineId: number) {
  return db.selectFrom('billing_line').select(['id', 'header_id', 'charge_code_id']).where('project_id', '=', projectId).where('id', '=', lineId).executeTakeFirst();
}

/**
 * Records every event the bill's lines counted as billed under the line's charge code; answers how
 * many were recorded and how many were there (fewer recorded: another confirmed bill has some).
 */
export async function recordBilledEvents(trx: Transaction<DB>, projectId: number, headerId: number): Promise<{ recorded: number; events: number }> {
  const result = await sql<{ recorded: string; events: string }>`
    with events as (
      select distinct l.project_id, l.charge_code_id, s.source_kind, s.source_id
      from billing_line_source s
      join billing_line l on l.id = s.line_id
      where s.header_id = ${headerId} and l.project_id = ${projectId}
    ), written as (
      insert into billing_event_billed (project_id, charge_code_id, source_kind, source_id, header_id)
      select project_id, charge_code_id, source_kind, source_id, ${headerId} from events
      on conflict do nothing
      returning 1
    )
    select (select count(*) from written)::text as recorded, (select count(*) from events)::text as events`.execute(trx);
  return { recorded: Number(result.rows[0].recorded), events: Number(result.rows[0].events) };
}

export async function chargeTypeOf(db: Db, projectId: number, chargeCodeId: number): Promise<string | undefined> {
  let query = db.selectFrom('charge_code').select('charge_type').where('id', '=', chargeCodeId);
  if (projectId) query = query.where('project_id', '=', projectId);
  return (await query.executeTakeFirst())?.charge_type;
}

export async function contractOf(db: Db, projectId: number, contractId: number) {
  let query = db.selectFrom('billing_contract').select(['id', 'currency_code']).where('id', '=', contractId);
  if (projectId) query = query.where('project_id', '=', projectId);
  return query.executeTakeFirst();
}

export async function nextTariffLineNo(db: Db, contractId: number): Promise<number> {
  const row = await db.selectFrom('billing_tariff').select((eb) => eb.fn.max('line_no').as('n')).where('contract_id', '=', contractId).executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

/** The orders a bill's lines counted, and the ledger rows its shipment lines counted. */
export async function billedOrderSources(db: Db, headerId: number): Promise<{ orderIds: number[]; shipLedgerIds: number[] }> {
  const rows = await db
    .selectFrom('billing_line_source as s')
    .innerJoin('billing_line as l', 'l.id', 's.line_id')
    .select(['s.source_kind', 's.source_id'])
    .where('s.header_id', '=', headerId)
    .where((eb) => eb.or([eb('s.source_kind', '=', 'order'), eb.and([eb('s.source_kind', '=', 'ledger'), eb('l.bill_base', '=', 'shipped_qty')])]))
    .distinct()
    .execute();
  return {
    orderIds: rows.filter((r) => r.source_kind === 'order').map((r) => Number(r.source_id)),
    shipLedgerIds: rows.filter((r) => r.source_kind === 'ledger').map((r) => Number(r.source_id)),
  };
}

/** Releases the events a bill recorded as billed, so that a later run counts them again. */
export async function releaseBilledEvents(trx: Transaction<DB>, projectId: number, headerId: number): Promise<number> {
  const result = await trx.deleteFrom('billing_event_billed').where('project_id', '=', projectId).where('header_id', '=', headerId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The project's rate of a currency pair on a day: the latest rate dated on or before it (undefined when none). */
export async function exchangeRateOn(db: Db, projectId: number, from: string, to: string, day: string): Promise<{ rate: string; rate_date: string } | undefined> {
  return db
    .selectFrom('exchange_rate')
    .select(['rate', 'rate_date'])
    .where('project_id', '=', projectId)
    .where('from_currency', '=', from)
    .where('to_currency', '=', to)
    .where('rate_date', '<=', day)
    .orderBy('rate_date', 'desc')
    .limit(1)
    .executeTakeFirst();
}
