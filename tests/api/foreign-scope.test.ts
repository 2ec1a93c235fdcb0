import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldDefinition, PageDefinition } from '../../engine/schema/index.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { lotFor, receiveStock } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * Foreign ids stay inside the caller's scope. Project A (PRJ1) and project B (PRJ2) share the
 * warehouse WH1; B also has WH2, which A has nothing of. As A's users we try B's ids in every
 * foreign field of every writable shipped page, as the parent of every sub-page, and in the
 * hand-written routes that take ids: each is a field error FIELD_FOREIGN (or 404 for a parent), and
 * nothing is written.
 */

const ROOT = path.resolve(__dirname, '../..');

function shippedPages(): PageDefinition[] {
  const dir = path.join(ROOT, 'definitions');
  return readdirSync(dir).flatMap((area) =>
    readdirSync(path.join(dir, area))
      .filter((name) => name.endsWith('.page.json'))
      .map((name) => JSON.parse(readFileSync(path.join(dir, area, name), 'utf8')) as PageDefinition),
  );
}

/** Where a field's value must come from: a foreign table's column or a page's dropdown SQL. */
function sourcesOf(field: FieldDefinition): string[] {
  const sources: string[] = [];
  if (field.options?.type === 'foreign') sources.push(`${field.options.table}.${field.options.valueField}`);
  if (field.foreign) sources.push(`${field.foreign.table}.${field.foreign.field}`);
  if (field.options?.type === 'sql') sources.push(`sql:${field.options.sql}`);
  return [...new Set(sources)];
}

/** Sources shared by every project and warehouse (the test checks the tables carry no scope column). */
const GLOBAL_TABLES = ['currency', 'job_handler', 'role', 'right_verb', 'sys_module'];
/** Dropdown SQL over codes every project shares: a value the SQL does not offer stands for B's. */
const GLOBAL_SQLS = ['sql:reasons', 'sql:module_groups', 'sql:right_modules'];
const unscoped = (source: string) => GLOBAL_TABLES.includes(source.split('.')[0]);
/** Pages over global tables: their sub-pages have no scope to keep. */
const GLOBAL_PARENT_PAGES = ['role'];

const ALL_MODULES = ['billing', 'carrier', 'edi', 'identity', 'inbound', 'inventory', 'job', 'masterdata', 'outbound', 'packing', 'transport'];
const ALL_RIGHTS = ALL_MODULES.flatMap((m) => ['view', 'add', 'edit', 'delete'].map((a) => `${m}:${a}` as const));

interface ProjectRows {
  projectId: number;
  warehouseId: number;
  ownerId: number;
  skuId: number;
  skuCode: string;
  partnerId: number;
  /** A supplier's code (the supplier dropdowns offer suppliers only; partnerId is a consignee). */
  partnerCode: string;
  lotId: number;
  /** The number of a lot of the SKU (an order line's lot dropdown stores the number). */
  lotNo: string;
  locationId: number;
  locationCode: string;
  vehicleId: number;
  soId: number;
  soLineId: number;
  psoId: number;
  poId: number;
  asnId: number;
  asnLineId: number;
  docs: Record<'adjust' | 'move' | 'transfer' | 'hold', number>;
  planId: number;
  ticketId: number;
  waveId: number;
  shipmentId: number;
  templateId: number;
  jobId: number;
  timerId: number;
  palletId: number;
  chargeCodeId: number;
  contractId: number;
  /** A bill (billing header) of the contract with one line and what that line counted. */
  billId: number;
  billLineId: number;
  carrierAccountId: number;
  /** A parcel shipment booked with the carrier account. */
  carrierShipmentId: number;
  /** A consignment holding the project's order. */
  consignmentId: number;
  /** A delivery order on a route, and that route (transport). */
  doId: number;
  routeId: number;
}

let t: TestApp;
let a: ProjectRows;
let b: ProjectRows;
let org2: number;
let wh2: number;
let userB: number;
let tokenA: string;
const db = () => t.database.db;

/** One project's master data, documents and 10 units of stock, in `warehouseId` (locations and vehicles in `placeWarehouseId`). */
async function projectRows(projectId: number, warehouseId: number, placeWarehouseId: number, tag: string): Promise<ProjectRows> {
  return inTransaction(db(), async (trx) => {
    const scope = { projectId, warehouseId, operator: 'tester' };
    const owner = await trx.insertInto('owner').values({ project_id: projectId, code: `OW-${tag}`, name: `Owner ${tag}` }).returning('id').executeTakeFirstOrThrow();
    const sku = await trx.insertInto('sku').values({ project_id: projectId, owner_id: owner.id, code: `SKU-${tag}`, description: `SKU ${tag}` }).returning('id').executeTakeFirstOrThrow();
    const partner = await trx.insertInto('partner').values({ project_id: projectId, partner_type: 'consignee', code: `P-${tag}`, name: `Partner ${tag}` }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('partner').values({ project_id: projectId, partner_type: 'supplier', code: `S-${tag}`, name: `Supplier ${tag}` }).execute();
    const location = await trx.insertInto('location').values({ warehouse_id: placeWarehouseId, code: `L-${tag}`, location_type: 'pick', pick_seq: 1 }).returning('id').executeTakeFirstOrThrow();
    const stockLocation = await trx.insertInto('location').values({ warehouse_id: warehouseId, code: `S-${tag}`, location_type: 'pick', pick_seq: 1 }).returning('id').executeTakeFirstOrThrow();
    const lot = await lotFor(trx, scope, owner.id, sku.id, {});
    await lotFor(trx, scope, owner.id, sku.id, { lotNo: `LOT-${tag}` });
    await receiveStock(trx, scope, { key: { ownerId: owner.id, skuId: sku.id, lotId: lot.id, locationId: stockLocation.id }, qty: 10, reference: { type: 'test', orderNo: `RCV-${tag}` } });
    const vehicle = await trx.insertInto('vehicle').values({ warehouse_id: placeWarehouseId, plate_no: `V-${tag}` }).returning('id').executeTakeFirstOrThrow();
    const inScope = { project_id: projectId, warehouse_id: warehouseId };
    const so = await trx.insertInto('so_header').values({ ...inScope, order_no: `SO-${tag}`, owner_id: owner.id, ship_to_address_en: '1 Road', required_ship_date: '2030-01-31' }).returning('id').executeTakeFirstOrThrow();
    const soLine = await trx.insertInto('so_line').values({ ...inScope, so_id: so.id, line_no: 1, sku_id: sku.id, qty: '1' }).returning('id').executeTakeFirstOrThrow();
    const pso = await trx.insertInto('pso_header').values({ ...inScope, pso_no: `PSO-${tag}`, owner_id: owner.id }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('pso_line').values({ ...inScope, pso_id: pso.id, line_no: 1, sku_id: sku.id, qty: '1' }).execute();
    const po = await trx.insertInto('po').values({ ...inScope, po_no: `PO-${tag}`, owner_id: owner.id }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('po_line').values({ project_id: projectId, po_id: po.id, line_no: 1, sku_id: sku.id, qty: '1' }).execute();
    const asn = await trx.insertInto('asn').values({ ...inScope, asn_no: `ASN-${tag}`, owner_id: owner.id }).returning('id').executeTakeFirstOrThrow();
    const asnLine = await trx.insertInto('asn_line').values({ project_id: projectId, asn_id: asn.id, line_no: 1, sku_id: sku.id, expected_qty: '1' }).returning('id').executeTakeFirstOrThrow();
    const docs = {} as ProjectRows['docs'];
    for (const docType of ['adjust', 'move', 'transfer', 'hold'] as const) {
      const doc = await trx.insertInto('inventory_document').values({ ...inScope, doc_type: docType, doc_no: `${docType}-${tag}` }).returning('id').executeTakeFirstOrThrow();
      await trx
        .insertInto('inventory_document_line')
        .values({ ...inScope, document_id: doc.id, line_no: 1, owner_id: owner.id, sku_id: sku.id, lot_id: lot.id, location_id: stockLocation.id, qty: '1', action: docType === 'adjust' ? 'add' : docType === 'hold' ? 'hold' : null })
        .execute();
      docs[docType] = Number(doc.id);
    }
    const plan = await trx.insertInto('count_plan').values({ ...inScope, plan_code: `CP-${tag}` }).returning('id').executeTakeFirstOrThrow();
    const ticket = await trx.insertInto('count_ticket').values({ ...inScope, ticket_no: `CT-${tag}`, plan_id: plan.id }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('count_ticket_line').values({ ...inScope, ticket_id: ticket.id, line_no: 1, location_id: stockLocation.id, owner_id: owner.id, sku_id: sku.id, lot_id: lot.id, system_qty: '10' }).execute();
    const wave = await trx.insertInto('wave').values({ ...inScope, wave_no: `WV-${tag}`, qty: '1', allocated_qty: '0', picked_qty: '0' }).returning('id').executeTakeFirstOrThrow();
    await trx.updateTable('so_header').set({ wave_id: `WV-${tag}` }).where('id', '=', so.id).execute();
    const shipment = await trx.insertInto('shipment_order').values({ ...inScope, shipment_no: `SH-${tag}` }).returning('id').executeTakeFirstOrThrow();
    await trx.updateTable('so_header').set({ shipment_order_id: shipment.id }).where('id', '=', so.id).execute();
    const template = await trx
      .insertInto('import_template')
      .values({ project_id: projectId, code: `IT-${tag}`, name_en: `Template ${tag}`, module_code: 'masterdata', function_code: 'sku', file_type: 'csv', delimiter: ',' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('import_template_column').values({ project_id: projectId, template_id: template.id, seq: 1, field_name: 'code' }).execute();
    const job = await trx
      .insertInto('job')
      .values({ project_id: projectId, warehouse_id: warehouseId, name: `Job ${tag}`, handler: 'report.scheduled', cron_expression: '0 0 2 * * ?', business_type: 'report' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const timer = await trx
      .insertInto('job')
      .values({ project_id: projectId, warehouse_id: warehouseId, name: `Timer ${tag}`, type: 'timer', handler: 'report.scheduled', cron_expression: '0 0 3 * * ?', business_type: 'report' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pallet = await trx
      .insertInto('pallet')
      .values({ ...inScope, pallet_no: `PL-${tag}`, sscc: String(tag.charCodeAt(0)).padStart(18, '1'), location_id: stockLocation.id, created_by: 'tester', updated_by: 'tester' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const chargeCode = await trx.insertInto('charge_code').values({ project_id: projectId, code: `CC-${tag}`, description: `Charge ${tag}`, charge_type: 'outbound' }).returning('id').executeTakeFirstOrThrow();
    const contract = await trx
      .insertInto('billing_contract')
      .values({ project_id: projectId, contract_no: `BC-${tag}`, owner_id: owner.id, currency_code: 'USD', valid_from: '2030-01-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tariff = await trx
      .insertInto('billing_tariff')
      .values({ project_id: projectId, contract_id: contract.id, line_no: 1, charge_code_id: chargeCode.id, charge_method: 'per_order', bill_base: 'orders', rate: '1', valid_from: '2030-01-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bill = await trx
      .insertInto('billing_header')
      .values({ project_id: projectId, bill_id: `BILL-${tag}`, owner_id: owner.id, contract_id: contract.id, cutoff_date: '2030-01-31', period_from: '2030-01-01', period_to: '2030-01-31', currency_code: 'USD', local_currency_code: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const billLine = await trx
      .insertInto('billing_line')
      .values({ project_id: projectId, header_id: bill.id, line_no: 1, tariff_id: tariff.id, charge_code_id: chargeCode.id, charge_code: `CC-${tag}`, charge_method: 'per_order', bill_base: 'orders', qty: '1', rate: '1', amount: '1', local_amount: '1', currency_code: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // What the line counted: one order event of the run, in the group the line names.
    await trx.updateTable('billing_line').set({ event_group: 'order' }).where('id', '=', billLine.id).execute();
    await trx.insertInto('billing_run_event').values({ project_id: projectId, header_id: bill.id, event_group: 'order', source_kind: 'order', source_id: so.id, source_ref: `SO-${tag}`, units: '1', order_lines: 1 }).execute();
    const carrierAccount = await trx.insertInto('carrier_account').values({ project_id: projectId, code: `CA-${tag}`, name: `Carrier ${tag}`, base_url: 'https://carrier.example' }).returning('id').executeTakeFirstOrThrow();
    const carrierShipment = await trx
      .insertInto('carrier_shipment')
      .values({
        ...inScope,
        shipment_no: `CS-${tag}`,
        carrier_account_id: carrierAccount.id,
        shipment_reference: `REF-${tag}`,
        expected_delivery_date: '2030-01-31',
        gateway: 'GW',
        service: 'STD',
        service_provider: 'SP',
        battery: 'none',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const consignment = await trx.insertInto('consignment').values({ ...inScope, consignment_no: `CN-${tag}`, consignee_name: `Partner ${tag}` }).returning('id').executeTakeFirstOrThrow();
    await trx.updateTable('so_header').set({ consignment_id: consignment.id }).where('id', '=', so.id).execute();
    const route = await trx.insertInto('tms_route').values({ ...inScope, route_no: `RT-${tag}`, route_date: '2030-01-31', vehicle_id: vehicle.id, status: 'open' }).returning('id').executeTakeFirstOrThrow();
    const deliveryOrder = await trx.insertInto('tms_do_header').values({ ...inScope, do_no: `DO-${tag}`, customer_name: `Customer ${tag}`, status: 'planned', so_id: so.id }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('tms_route_way').values({ route_id: route.id, do_id: deliveryOrder.id, seq: 1, created_by: 'tester', updated_by: 'tester' }).execute();
    return {
      chargeCodeId: Number(chargeCode.id),
      contractId: Number(contract.id),
      billId: Number(bill.id),
      billLineId: Number(billLine.id),
      carrierAccountId: Number(carrierAccount.id),
      carrierShipmentId: Number(carrierShipment.id),
      consignmentId: Number(consignment.id),
      doId: Number(deliveryOrder.id),
      routeId: Number(route.id),
      palletId: Number(pallet.id),
      projectId,
      warehouseId,
      ownerId: Number(owner.id),
      skuId: Number(sku.id),
      skuCode: `SKU-${tag}`,
      partnerId: Number(partner.id),
      partnerCode: `S-${tag}`,
      lotId: Number(lot.id),
      lotNo: `LOT-${tag}`,
      locationId: Number(location.id),
      locationCode: `L-${tag}`,
      vehicleId: Number(vehicle.id),
      soId: Number(so.id),
      soLineId: Number(soLine.id),
      psoId: Number(pso.id),
      poId: Number(po.id),
      asnId: Number(asn.id),
      asnLineId: Number(asnLine.id),
      docs,
      planId: Number(plan.id),
      ticketId: Number(ticket.id),
      waveId: Number(wave.id),
      shipmentId: Number(shipment.id),
      templateId: Number(template.id),
      jobId: Number(job.id),
      timerId: Number(timer.id),
    };
  });
}

/** A's or B's value for a foreign source; undefined when the source has no such row. */
function valueFor(rows: ProjectRows, source: string): number | string | undefined {
  const values: Record<string, number | string> = {
    'owner.id': rows.ownerId,
    'sku.id': rows.skuId,
    'partner.id': rows.partnerId,
    'partner.code': rows.partnerCode,
    'lot.id': rows.lotId,
    'lot.lot_no': rows.lotNo,
    'location.id': rows.locationId,
    'vehicle.id': rows.vehicleId,
    'so_header.id': rows.soId,
    'pso_header.id': rows.psoId,
    'po.id': rows.poId,
    'asn.id': rows.asnId,
    'asn_line.id': rows.asnLineId,
    'inventory_document.id': rows.docs.adjust,
    'count_plan.id': rows.planId,
    'wave.id': rows.waveId,
    'import_template.id': rows.templateId,
    'job.id': rows.jobId,
    'pallet.id': rows.palletId,
    'charge_code.id': rows.chargeCodeId,
    'billing_contract.id': rows.contractId,
    'billing_header.id': rows.billId,
    'billing_line.id': rows.billLineId,
    'carrier_account.id': rows.carrierAccountId,
    'consignment.id': rows.consignmentId,
    'sql:to_locations': rows.locationId,
    'sql:warehouses': rows.warehouseId,
  };
  return values[source];
}

/** B's values of the access masters and B-only dropdown SQL that A's rows do not need. */
function foreignValueOfB(source: string): number | string | undefined {
  if (GLOBAL_SQLS.includes(source)) return 'NOT-OFFERED';
  const special: Record<string, number> = { 'project.id': b.projectId, 'warehouse.id': wh2, 'organization.id': org2, 'sql:warehouses': wh2, 'app_user.id': userB };
  return special[source] ?? valueFor(b, source);
}

const post = (token: string, url: string, payload: Record<string, unknown>) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });
const details = (body: string) => (JSON.parse(body) as { details?: Array<{ field: string; code: string }> }).details ?? [];

beforeAll(async () => {
  t = await buildTestApp();
  const prj1 = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh1 = await db().selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  org2 = Number((await db().insertInto('organization').values({ code: 'ORG2', name: 'Other organization' }).returning('id').executeTakeFirstOrThrow()).id);
  const prj2 = await db().insertInto('project').values({ organization_id: prj1.organization_id, code: 'PRJ2', name: 'Project B' }).returning('id').executeTakeFirstOrThrow();
  wh2 = Number((await db().insertInto('warehouse').values({ organization_id: prj1.organization_id, code: 'WH2', name: 'B only', nav_layout: null }).returning('id').executeTakeFirstOrThrow()).id);
  await db().insertInto('project_warehouse').values([{ project_id: prj2.id, warehouse_id: wh1.id }, { project_id: prj2.id, warehouse_id: wh2 }]).execute();
  a = await projectRows(Number(prj1.id), Number(wh1.id), Number(wh1.id), 'A');
  b = await projectRows(Number(prj2.id), Number(wh1.id), wh2, 'B');
  userB = (await createUserAccount(t, { loginAccount: 'b-user', rights: ['inbound:view'], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] })).uid;
  tokenA = (await createUserAccount(t, { loginAccount: 'a-user', rights: [...ALL_RIGHTS], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] })).token;
});
afterAll(() => t?.close());

/** What a refused call must leave as it was: B's stock and the rows of every table a page writes. */
async function snapshot() {
  const pages = shippedPages().filter((p) => p.readOnly !== true);
  const counts: Record<string, number> = {};
  for (const table of new Set(pages.map((p) => p.table.name))) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db());
    counts[table] = Number(rows[0].n);
  }
  const balances = await db().selectFrom('inventory_balance').select(['id', 'project_id', 'on_hand_qty', 'allocated_qty', 'held_qty']).orderBy('id').execute();
  return { counts, balances };
}

describe('foreign ids of another project', () => {
  it("a supervisor of A cannot order B's owner and SKU; B's stock stays", async () => {
    const { uid, token } = await createUserAccount(t, { loginAccount: 'a-supervisor', projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    const role = await db().selectFrom('role').select('id').where('name', '=', 'Supervisor').executeTakeFirstOrThrow();
    await db().insertInto('user_role').values({ user_id: uid, role_id: role.id }).execute();
    const before = await snapshot();
    const header = await post(token, '/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: 'SO-STEAL', owner_id: b.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-01-31' },
    });
    expect(header.statusCode, header.body).toBe(400);
    expect(details(header.body)).toContainEqual(expect.objectContaining({ field: 'owner_id', code: 'FIELD_FOREIGN' }));
    // A's own order cannot take B's SKU or be hung under B's order either.
    const line = await post(token, '/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: a.soId, sku_id: b.skuId, qty: '2' } });
    expect(line.statusCode, line.body).toBe(400);
    expect(details(line.body)).toContainEqual(expect.objectContaining({ field: 'sku_id', code: 'FIELD_FOREIGN' }));
    const underB = await post(token, '/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: b.soId, sku_id: b.skuId, qty: '2' } });
    expect(underB.statusCode, underB.body).toBe(400);
    expect(details(underB.body)).toContainEqual(expect.objectContaining({ field: 'so_id', code: 'FIELD_FOREIGN' }));
    expect(await snapshot()).toEqual(before);
  });

  it("every foreign field of every writable page refuses B's value and takes A's", async () => {
    const pages = shippedPages().filter((p) => p.readOnly !== true);
    const { rows: scoped } = await sql<{ table_name: string }>`
      select distinct table_name from information_schema.columns
      where table_schema = current_schema() and column_name in ('organization_id', 'project_id', 'warehouse_id')
    `.execute(db());
    const scopedTables = new Set(scoped.map((r) => r.table_name));
    expect(GLOBAL_TABLES.filter((table) => scopedTables.has(table))).toEqual([]);
    const before = await snapshot();
    const problems: string[] = [];
    let tried = 0;
    for (const page of pages) {
      for (const field of page.fields) {
        const sources = sourcesOf(field).filter((s) => !unscoped(s));
        if (!sources.length) continue;
        const foreign = foreignValueOfB(sources[0]);
        if (foreign === undefined) {
          problems.push(`${page.functionCode}.${field.name}: no B row for ${sources[0]}`);
          continue;
        }
        tried += 1;
        const ref = { moduleCode: page.moduleCode, functionCode: page.functionCode };
        const refused = await post(tokenA, '/generic/adding', { ...ref, record: { [field.name]: foreign } });
        if (refused.statusCode !== 400 || !details(refused.body).some((d) => d.field === field.name && d.code === 'FIELD_FOREIGN')) {
          problems.push(`${page.functionCode}.${field.name}=${foreign} (${sources[0]}) -> ${refused.statusCode} ${refused.body.slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(tried).toBeGreaterThan(30);
    expect(await snapshot()).toEqual(before);
    // A's own values pass the same check (the refusal above is about the scope, not the value's kind).
    for (const page of pages) {
      for (const field of page.fields) {
        const sources = sourcesOf(field).filter((s) => !unscoped(s) && valueFor(a, s) !== undefined);
        if (!sources.length) continue;
        const own = await post(tokenA, '/generic/adding', { moduleCode: page.moduleCode, functionCode: page.functionCode, record: { [field.name]: valueFor(a, sources[0]) } });
        if (details(own.body).some((d) => d.field === field.name && d.code === 'FIELD_FOREIGN')) problems.push(`own ${page.functionCode}.${field.name} -> ${own.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("updating A's rows with B's ids is refused and changes nothing", async () => {
    const before = await snapshot();
    const version = async (functionCode: string, moduleCode: string, key: number) => {
      const response = await post(tokenA, '/generic/selection', { moduleCode, functionCode, page: 1, pageSize: 100 });
      expect(response.statusCode, response.body).toBe(200);
      return json<{ rows: Array<{ _key: number; _version: string | null }> }>(response).rows.find((r) => Number(r._key) === key)?._version ?? null;
    };
    const attempts: Array<[string, string, number, Record<string, unknown>, string]> = [
      ['outbound', 'so', a.soId, { owner_id: b.ownerId }, 'owner_id'],
      ['outbound', 'so', a.soId, { consignee_id: b.partnerId }, 'consignee_id'],
      ['outbound', 'soDetail', a.soLineId, { sku_id: b.skuId }, 'sku_id'],
      ['inbound', 'asn', a.asnId, { supplier_code: b.partnerCode }, 'supplier_code'],
      ['inbound', 'po', a.poId, { owner_id: b.ownerId }, 'owner_id'],
    ];
    const problems: string[] = [];
    for (const [moduleCode, functionCode, key, record, field] of attempts) {
      const response = await post(tokenA, '/generic/updating', { moduleCode, functionCode, key, version: await version(functionCode, moduleCode, key), record });
      if (response.statusCode !== 400 || !details(response.body).some((d) => d.field === field && d.code === 'FIELD_FOREIGN')) problems.push(`${functionCode}.${field} -> ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("an import naming B's owner or B's order is refused row by row", async () => {
    const before = await snapshot();
    /** A csv with the page's field map headers and one row of these values (blank for the others). */
    const upload = async (functionCode: string, values: Record<string, string | number>) => {
      const page = shippedPages().find((p) => p.moduleCode === 'outbound' && p.functionCode === functionCode)!;
      const columns = page.fieldMaps![0].columns;
      const csv = `${columns.map((c) => c.header).join(',')}\n${columns.map((c) => String(values[c.field] ?? '')).join(',')}\n`;
      const boundary = '----foreignscope';
      const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const body = `${part('moduleCode', 'outbound')}${part('functionCode', functionCode)}${part('fieldMap', 'default')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rows.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
      return injectAs(t.app, tokenA, { method: 'POST', url: '/api/generic/import', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
    };
    const orders = await upload('so', { order_no: 'IMP-1', owner_id: b.ownerId, ship_to_address_en: '1 Road', required_ship_date: '2030-01-31' });
    expect(orders.statusCode, orders.body).toBe(400);
    expect(details(orders.body)).toContainEqual(expect.objectContaining({ field: 'row 2: owner_id', code: 'FIELD_FOREIGN' }));
    const lines = await upload('soDetail', { so_id: b.soId, sku_id: b.skuId, qty: 1 });
    expect(lines.statusCode, lines.body).toBe(400);
    expect(details(lines.body)).toContainEqual(expect.objectContaining({ field: 'row 2: so_id', code: 'FIELD_FOREIGN' }));
    expect(details(lines.body)).toContainEqual(expect.objectContaining({ field: 'row 2: sku_id', code: 'FIELD_FOREIGN' }));
    expect(await snapshot()).toEqual(before);
  });

  it("a transfer to B's warehouse or B's location is refused by the transfer's rules", async () => {
    const before = await snapshot();
    const header = await post(tokenA, '/generic/adding', { moduleCode: 'inventory', functionCode: 'invTransfer', record: { to_warehouse_id: wh2, reason: 'OWNER' } });
    expect(header.statusCode, header.body).toBe(400);
    expect(details(header.body)).toContainEqual(expect.objectContaining({ field: 'to_warehouse_id', code: 'FIELD_FOREIGN' }));
    const line = await post(tokenA, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'invTransferLine',
      record: { document_id: a.docs.transfer, owner_id: a.ownerId, sku_id: a.skuId, location_id: a.locationId, to_owner_id: a.ownerId, to_sku_id: a.skuId, to_location_id: b.locationId, qty: 1, reason: 'OWNER' },
    });
    expect(line.statusCode, line.body).toBe(400);
    expect(details(line.body)).toContainEqual(expect.objectContaining({ field: 'to_location_id', code: 'FIELD_FOREIGN' }));
    expect(await snapshot()).toEqual(before);
  });

  it("dropdowns offer none of B's rows", async () => {
    const leaks: string[] = [];
    for (const page of shippedPages()) {
      for (const field of page.fields) {
        const sources = sourcesOf(field).filter((s) => !unscoped(s));
        if (!sources.length || !field.options) continue;
        const foreign = foreignValueOfB(sources[0]);
        const response = await post(tokenA, '/generic/dropdown', { moduleCode: page.moduleCode, functionCode: page.functionCode, field: field.name });
        if (response.statusCode !== 200) {
          leaks.push(`${page.functionCode}.${field.name} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
          continue;
        }
        const options = json<{ options: Array<{ value: unknown }> }>(response).options;
        if (options.some((o) => String(o.value) === String(foreign))) leaks.push(`${page.functionCode}.${field.name} offers ${foreign}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe('sub-pages of another project', () => {
  /** B's (or A's) header row of each page with sub-pages. */
  const parentOf = (rows: ProjectRows, functionCode: string, uid: number): number | undefined =>
    (
      ({
        asn: rows.asnId,
        po: rows.poId,
        cycleCount: rows.ticketId,
        invAdjust: rows.docs.adjust,
        invHold: rows.docs.hold,
        invTransfer: rows.docs.transfer,
        lnvnMove: rows.docs.move,
        importConfig: rows.templateId,
        sku: rows.skuId,
        user: uid,
        so: rows.soId,
        pso: rows.psoId,
        shipmentOrder: rows.shipmentId,
        wave: rows.waveId,
        job: rows.jobId,
        timer: rows.timerId,
        pallet: rows.palletId,
        billingContract: rows.contractId,
        billingMaintance: rows.billId,
        billingLine: rows.billLineId,
        shipment: rows.carrierShipmentId,
        consignment: rows.consignmentId,
      }) as Record<string, number>
    )[functionCode];

  it("the adjustment, move, hold and transfer tabs answer 404 for B's documents", async () => {
    for (const [functionCode, docType] of [['invAdjust', 'adjust'], ['lnvnMove', 'move'], ['invHold', 'hold'], ['invTransfer', 'transfer']] as const) {
      const response = await post(tokenA, '/generic/tab', { moduleCode: 'inventory', functionCode, subPage: 'lines', parentKey: b.docs[docType], page: 1, pageSize: 100 });
      expect(response.statusCode, `${functionCode}: ${response.body}`).toBe(404);
      const own = await post(tokenA, '/generic/tab', { moduleCode: 'inventory', functionCode, subPage: 'lines', parentKey: a.docs[docType], page: 1, pageSize: 100 });
      expect(own.statusCode, own.body).toBe(200);
      expect(json<{ rows: unknown[] }>(own).rows).toHaveLength(1);
    }
  });

  it("every sub-page of every page answers 404 for B's header and A's rows for A's", async () => {
    const uidA = Number((await db().selectFrom('app_user').select('id').where('login_account', '=', 'a-user').executeTakeFirstOrThrow()).id);
    const problems: string[] = [];
    let tried = 0;
    for (const page of shippedPages()) {
      if (!page.subPages?.length || GLOBAL_PARENT_PAGES.includes(page.functionCode)) continue;
      const foreign = parentOf(b, page.functionCode, userB);
      const own = parentOf(a, page.functionCode, uidA);
      if (foreign === undefined || own === undefined) {
        problems.push(`${page.functionCode}: no parent rows in the test`);
        continue;
      }
      for (const subPage of page.subPages) {
        tried += 1;
        const request = { moduleCode: page.moduleCode, functionCode: page.functionCode, subPage: subPage.code, page: 1, pageSize: 100 };
        const refused = await post(tokenA, '/generic/tab', { ...request, parentKey: foreign });
        if (refused.statusCode !== 404) problems.push(`${page.functionCode}/${subPage.code} with B's ${foreign} -> ${refused.statusCode} ${refused.body.slice(0, 160)}`);
        const answered = await post(tokenA, '/generic/tab', { ...request, parentKey: own });
        if (answered.statusCode !== 200) problems.push(`${page.functionCode}/${subPage.code} with A's ${own} -> ${answered.statusCode} ${answered.body.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(tried).toBeGreaterThan(15);
  });
});

describe("hand-written routes with B's ids", () => {
  it('refuse every id and code of another project and change nothing', async () => {
    const { uid, token } = await createUserAccount(t, {
      loginAccount: 'a-routes',
      rights: ['outbound.pick:confirm', 'outbound.wave:release', 'outbound.pso:confirm', 'outbound.shipmentOrder:view', 'outbound.shipmentOrder:edit', 'transport.tmsOrder:add', 'transport.tmsOrder:edit', 'transport.tmsOrder:delete', 'transport.doOrders:view', 'transport.doOrders:edit'],
      projectCodes: ['PRJ1'],
      warehouseCodes: ['WH1'],
    });
    const role = await db().selectFrom('role').select('id').where('name', '=', 'Supervisor').executeTakeFirstOrThrow();
    await db().insertInto('user_role').values({ user_id: uid, role_id: role.id }).execute();
    const asnLineB = Number((await db().selectFrom('asn_line').select('id').where('asn_id', '=', b.asnId).executeTakeFirstOrThrow()).id);
    const asnLineA = Number((await db().selectFrom('asn_line').select('id').where('asn_id', '=', a.asnId).executeTakeFirstOrThrow()).id);
    const poLineB = Number((await db().selectFrom('po_line').select('id').where('po_id', '=', b.poId).executeTakeFirstOrThrow()).id);
    const countLineB = Number((await db().selectFrom('count_ticket_line').select('id').where('ticket_id', '=', b.ticketId).executeTakeFirstOrThrow()).id);
    const balanceB = Number((await db().selectFrom('inventory_balance').select('id').where('project_id', '=', b.projectId).executeTakeFirstOrThrow()).id);
    // 'foreign': a field error FIELD_FOREIGN; 'refused': 400, 404 or 409 with the route's own code
    // (a SKU or location code by scan keeps the spec's INVALID_SKU and LOCATION_NOT_FOUND).
    const calls: Array<[string, Record<string, unknown>, 'foreign' | 'refused']> = [
      // Inbound: B's ASN, PO and lines; A's ASN with B's owner, supplier, SKU and location.
      ['/asn/getHeader', { id: b.asnId }, 'refused'],
      ['/asn/getDetail', { id: b.asnId }, 'refused'],
      ['/asn/saveHeader', { ownerCode: 'OW-B', expectedDate: '2030-01-31' }, 'foreign'],
      ['/asn/saveHeader', { id: a.asnId, supplierCode: 'P-B' }, 'foreign'],
      ['/asn/saveHeader', { ownerCode: 'OW-A', supplierCode: 'P-B', expectedDate: '2030-01-31' }, 'foreign'],
      ['/asn/saveHeader', { id: b.asnId, remark: 'mine' }, 'refused'],
      ['/asn/saveDetail', { asnId: a.asnId, lines: [{ skuCode: 'SKU-B', expectedQty: '1' }] }, 'refused'],
      ['/asn/saveDetail', { asnId: b.asnId, lines: [] }, 'refused'],
      ['/asn/deletelist', { ids: [b.asnId] }, 'refused'],
      ['/asn/cancel', { id: b.asnId }, 'refused'],
      ['/asn/close', { id: b.asnId }, 'refused'],
      ['/asn/fromPo', { poId: b.poId, lines: [{ poLineId: poLineB, qty: '1' }] }, 'refused'],
      ['/inbound/batch/receive', { lines: [{ asnLineId: asnLineB, qty: '1', locationCode: 'S-A' }] }, 'refused'],
      ['/inbound/batch/receive', { lines: [{ asnLineId: asnLineA, qty: '1', locationCode: 'L-B' }] }, 'refused'],
      ['/split/table', { asnId: b.asnId }, 'refused'],
      // Outbound: B's orders, waves, shipments, balances; A's order with B's SKU.
      ['/so/create/soDetail', { soId: a.soId, skuCode: 'SKU-B', qty: '1' }, 'refused'],
      ['/so/save/soDetail', { soId: a.soId, lines: [{ skuCode: 'SKU-B', qty: '1' }] }, 'refused'],
      ['/so/save/soDetail', { soId: b.soId, lines: [] }, 'refused'],
      ['/so/header/allocation', { soIds: [b.soId] }, 'refused'],
      ['/so/detail/allocation', { lineIds: [b.soLineId] }, 'refused'],
      ['/so/manualAllocation', { lineId: a.soLineId, allocations: [{ balanceId: balanceB, qty: '1' }] }, 'refused'],
      ['/so/addMaintenanceList', { entries: [{ orderNo: 'SO-B', reason: 'x' }] }, 'refused'],
      ['/so/addMaintenanceList', { entries: [{ skuCode: 'SKU-B', reason: 'x' }] }, 'refused'],
      ['/so/addOrderToShipmentId', { shipmentOrderId: b.shipmentId, soIds: [a.soId] }, 'refused'],
      ['/so/addOrderToShipmentId', { shipmentOrderId: a.shipmentId, soIds: [b.soId] }, 'refused'],
      ['/so/wave/save', { orderIds: [b.soId] }, 'refused'],
      ['/so/wave/save', { waveId: b.waveId, orderIds: [a.soId] }, 'refused'],
      ['/so/wave/save', { orderIds: [a.soId], ownerCode: 'OW-B' }, 'refused'],
      ['/wave/release', { waveId: b.waveId }, 'refused'],
      ['/wave/batchUpdateRef', { waveIds: [b.waveId], reference: 'mine' }, 'refused'],
      ['/so/pick', { soId: b.soId }, 'refused'],
      // Inventory: B's documents, count tickets and plans, B's stock by code.
      ...(['invAdjHeader', 'invMoveHeader', 'invTransferHeader', 'invHoldHeader'] as const).flatMap((path, i) =>
        ['confirm', 'cancel', 'requestApproval'].map((action) => [`/inventory/${path}/${action}`, { id: [b.docs.adjust, b.docs.move, b.docs.transfer, b.docs.hold][i] }, 'refused'] as [string, Record<string, unknown>, 'refused']),
      ),
      ['/inventory/cycleCount/count', { lineId: countLineB, qty: '3' }, 'refused'],
      ['/inventory/cycleCount/recount', { id: b.ticketId }, 'refused'],
      ['/inventory/cycleCount/approve', { id: b.ticketId }, 'refused'],
      ['/inventory/cycleCount/close', { ids: [b.ticketId] }, 'refused'],
      ['/inventory/cycleCountMaster/createCountOrder', { id: b.planId }, 'refused'],
      ['/inventory/handheld/move', { fromLocation: 'S-B', sku: 'SKU-B', qty: 1, toLocation: 'L-A' }, 'refused'],
      ['/inventory/handheld/move', { fromLocation: 'S-A', sku: 'SKU-A', qty: 1, toLocation: 'L-B' }, 'refused'],
      ['/inventory/handheld/countTicket', { id: b.ticketId }, 'refused'],
      ['/inventory/handheld/countTicket', { ticketNo: 'CT-B' }, 'refused'],
      // Transport: B's delivery orders and routes; A's route with B's order and vehicle, A's order onto B's route.
      ['/tms/saveTmsDoHeader', { id: b.doId, customerName: 'mine' }, 'refused'],
      ['/tms/deleteTmsDoHeader', { id: b.doId }, 'refused'],
      ['/tms/saveRoute', { id: b.routeId, routeDate: '2030-02-01' }, 'refused'],
      ['/tms/saveRoute', { id: a.routeId, routeDate: '2030-02-01', vehicleId: b.vehicleId }, 'foreign'],
      ['/tms/deleteRoute', { id: b.routeId }, 'refused'],
      ['/tms/addOrdersToRoute', { routeId: a.routeId, doIds: [b.doId] }, 'refused'],
      ['/tms/addOrdersToRoute', { routeId: b.routeId, doIds: [a.doId] }, 'refused'],
      ['/tms/removeOrderFromRoute', { routeId: b.routeId, doId: b.doId }, 'refused'],
      ['/tms/sortWay', { routeId: b.routeId, doIds: [b.doId] }, 'refused'],
      ['/tms/splitRoute', { routeId: b.routeId, doId: b.doId }, 'refused'],
      ['/tms/mergeRoute', { routeId: a.routeId, fromRouteId: b.routeId }, 'refused'],
      ['/tms/comfirmRoute', { routeId: b.routeId }, 'refused'],
      ['/tms/uncomfirmRoute', { routeId: b.routeId }, 'refused'],
    ];
    const before = await snapshot();
    const problems: string[] = [];
    for (const [url, body, expected] of calls) {
      const response = await post(token, url, body);
      const refused = response.statusCode === 400 || response.statusCode === 404 || response.statusCode === 409;
      if (!refused) problems.push(`${url} ${JSON.stringify(body)} -> ${response.statusCode} ${response.body.slice(0, 200)}`);
      else if (expected === 'foreign' && !details(response.body).some((d) => d.code === 'FIELD_FOREIGN')) problems.push(`${url} ${JSON.stringify(body)} -> not FIELD_FOREIGN: ${response.body.slice(0, 200)}`);
    }
    // Reads with B's ids or codes answer nothing of B.
    for (const [url, body] of [
      ['/so/sku', { ownerCode: 'OW-B', text: 'SKU' }],
      ['/so/sku', { soId: b.soId, text: 'SKU' }],
      ['/so/wave', { ownerCode: 'OW-B' }],
      ['/so/findShipmentReference', { shipmentNo: 'SH-B' }],
      ['/pick/tasks', { soId: b.soId }],
      ['/inventory/handheld/stock', { location: 'S-B' }],
      ['/so/balance', { soId: b.soId }],
      ['/tms/getRoutes', { ids: [b.routeId] }],
      ['/tms/createFromShippedOrders', { soIds: [b.soId] }],
    ] as const) {
      const response = await post(token, url, body);
      if (response.statusCode >= 500 || (response.statusCode === 200 && /SKU-B|SO-B|SH-B|OW-B|DO-B|RT-B/.test(response.body))) problems.push(`read ${url} -> ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('dropdown lists the engine checks itself', () => {
  const dropdown = async (token: string, moduleCode: string, functionCode: string, field: string) => {
    const response = await post(token, '/generic/dropdown', { moduleCode, functionCode, field });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ options: Array<{ value: unknown }> }>(response).options.map((o) => String(o.value));
  };

  it("a transfer of B goes to B's other warehouse, offered by the dropdowns; A is offered none of it", async () => {
    await db().insertInto('inv_code').values({ code_type: 'transfer', code: 'OWNER', description: 'Change of owner' }).onConflict((oc) => oc.columns(['code_type', 'code']).doNothing()).execute();
    const { token } = await createUserAccount(t, { loginAccount: 'b-transfer', rights: [...ALL_RIGHTS], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
    expect(await dropdown(token, 'inventory', 'invTransfer', 'to_warehouse_id')).toEqual(expect.arrayContaining([String(b.warehouseId), String(wh2)]));
    expect(await dropdown(token, 'inventory', 'invTransferLine', 'to_location_id')).toContain(String(b.locationId));
    expect(await dropdown(tokenA, 'inventory', 'invTransfer', 'to_warehouse_id')).toEqual([String(a.warehouseId)]);
    expect(await dropdown(tokenA, 'inventory', 'invTransferLine', 'to_location_id')).not.toContain(String(b.locationId));
    const header = await post(token, '/generic/adding', { moduleCode: 'inventory', functionCode: 'invTransfer', record: { to_warehouse_id: wh2, reason: 'OWNER' } });
    expect(header.statusCode, header.body).toBe(200);
    const documentId = Number(json<{ row: { _key: number } }>(header).row._key);
    const stock = await db().selectFrom('location').select('id').where('code', '=', 'S-B').executeTakeFirstOrThrow();
    const line = await post(token, '/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'invTransferLine',
      record: { document_id: documentId, owner_id: b.ownerId, sku_id: b.skuId, location_id: Number(stock.id), to_owner_id: b.ownerId, to_sku_id: b.skuId, to_location_id: b.locationId, qty: 1, reason: 'OWNER' },
    });
    expect(line.statusCode, line.body).toBe(200);
  });

  it('a reason the dropdown SQL does not offer, a code not in the code master and a choice not in a fixed list are FIELD_FOREIGN', async () => {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['inventory', 'invTransfer', { reason: 'NO-SUCH-REASON' }, 'reason'],
      ['masterdata', 'sku', { code: 'SKU-CM', description: 'x', owner_id: a.ownerId, base_uom: 'NOUOM' }, 'base_uom'],
      ['masterdata', 'importConfig', { code: 'IT-FL', name_en: 'x', module_code: 'masterdata', function_code: 'sku', file_type: 'pdf' }, 'file_type'],
    ];
    const before = await snapshot();
    for (const [moduleCode, functionCode, record, field] of cases) {
      const response = await post(tokenA, '/generic/adding', { moduleCode, functionCode, record });
      expect(response.statusCode, `${functionCode}: ${response.body}`).toBe(400);
      expect(details(response.body)).toContainEqual(expect.objectContaining({ field, code: 'FIELD_FOREIGN' }));
    }
    expect(await snapshot()).toEqual(before);
  });

  it("the handheld-user page offers and takes only users of the session's project", async () => {
    const uidA = Number((await db().selectFrom('app_user').select('id').where('login_account', '=', 'a-user').executeTakeFirstOrThrow()).id);
    const offered = await dropdown(tokenA, 'masterdata', 'rfUser', 'user_id');
    expect(offered).toContain(String(uidA));
    expect(offered).not.toContain(String(userB));
    const refused = await post(tokenA, '/generic/adding', { moduleCode: 'masterdata', functionCode: 'rfUser', record: { user_id: userB } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(details(refused.body)).toContainEqual(expect.objectContaining({ field: 'user_id', code: 'FIELD_FOREIGN' }));
  });
});
