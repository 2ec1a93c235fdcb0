import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import { pathKm, type GeoPoint } from '../../../common/route-plan.js';
import type { Choice, DeliveryOrder, RoutesAnswer, TmsRoute } from '../../../common/transport-api.js';
import type { DB } from '../../db/schema.js';
import { nextDocumentNumber, warehouseParam } from '../masterdata/index.js';
import * as repo from './transport.repository.js';
import type { DoRow, DoValues, RouteRow } from './transport.repository.js';
import type { DoStatus } from './transport.tables.js';

/**
 * Transport planning (docs/transport.md). Delivery orders are entered, imported from a file (all
 * rows or none) or made from shipped sales orders; they are planned onto routes (a vehicle and a
 * driver on a day) as ordered stops. An open route's stops may be added, taken off, moved, sorted,
 * split off into a new route and merged from another route; a confirmed route is read-only until
 * it is unconfirmed. A delivery order is unplanned on no route, planned on an open one and
 * confirmed on a confirmed one; it is changed or deleted only while unplanned.
 */

export interface TmsScope extends repo.Scope {
  operator: string;
}

type Db = Kysely<DB> | Transaction<DB>;

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());
const num = (value: string | null): number | null => (value === null ? null : Number(value));

export function deliveryOrderOf(row: DoRow): DeliveryOrder {
  return {
    id: Number(row.id),
    doNo: row.do_no,
    customerName: row.customer_name,
    consigneeName: row.consignee_name,
    address: row.address,
    city: row.city,
    latitude: num(row.latitude),
    longitude: num(row.longitude),
    windowFrom: iso(row.window_from),
    windowTo: iso(row.window_to),
    weightKg: new Decimal(row.weight_kg).toString(),
    volumeM3: new Decimal(row.volume_m3).toString(),
    palletCount: Number(row.pallet_count),
    status: row.status,
    soNo: row.so_no,
    remarks: row.remarks,
    routeId: row.route_id === null ? null : Number(row.route_id),
  };
}

/** Delivery orders of the warehouse: by status, or matching a text; at most 500. */
export async function listDeliveryOrders(db: Db, scope: repo.Scope, filter: { status?: DoStatus; text?: string }): Promise<DeliveryOrder[]> {
  const rows = await repo.listDos(db, scope, { ...filter, limit: 500 });
  return rows.map(deliveryOrderOf);
}

/** The fields of a delivery order as the API names them. */
export interface DoInput {
  doNo?: string | null;
  customerName: string;
  consigneeName?: string | null;
  address?: string | null;
  city?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  windowFrom?: string | null;
  windowTo?: string | null;
  weightKg?: string | null;
  volumeM3?: string | null;
  palletCount?: number | null;
  remarks?: string | null;
}

const text = (value: string | null | undefined): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

function valuesOf(input: DoInput): Omit<DoValues, 'do_no'> {
  return {
    customer_name: input.customerName.trim(),
    consignee_name: text(input.consigneeName),
    address: text(input.address),
    city: text(input.city),
    latitude: input.latitude === null || input.latitude === undefined ? null : String(input.latitude),
    longitude: input.longitude === null || input.longitude === undefined ? null : String(input.longitude),
    window_from: text(input.windowFrom),
    window_to: text(input.windowTo),
    weight_kg: input.weightKg ?? '0',
    volume_m3: input.volumeM3 ?? '0',
    pallet_count: input.palletCount ?? 0,
    remarks: text(input.remarks),
  };
}

/** Refuses a time window that ends before it starts. */
function checkWindow(values: { window_from?: string | null; window_to?: string | null }, field = 'windowTo'): void {
  if (values.window_from && values.window_to && new Date(values.window_from) > new Date(values.window_to)) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_RANGE', params: { min: values.window_from, max: '' } }]);
  }
}

async function oneDo(db: Db, scope: repo.Scope, id: number): Promise<DeliveryOrder> {
  const [row] = await repo.listDos(db, scope, { ids: [id], limit: 1 });
  if (!row) throw new AppError('NO_RECORD');
  return deliveryOrderOf(row);
}

/** Adds a delivery order (numbered by the TMSDO rule when no number is given) or changes an unplanned one. */
export async function saveDeliveryOrder(trx: Transaction<DB>, scope: TmsScope, input: DoInput & { id?: number }): Promise<DeliveryOrder> {
  const values = valuesOf(input);
  checkWindow(values);
  if (input.id !== undefined) {
    const [old] = await repo.lockDos(trx, scope, [input.id]);
    if (!old) throw new AppError('NO_RECORD');
    if (old.status !== 'unplanned') throw new AppError('TMS_DO_LOCKED', { doNo: old.do_no, status: old.status });
    const doNo = text(input.doNo) ?? old.do_no;
    if (doNo !== old.do_no && (await repo.existingDoNos(trx, scope.warehouseId, [doNo])).size) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'doNo', code: 'FIELD_NOT_UNIQUE' }]);
    await repo.updateDo(trx, input.id, { ...values, do_no: doNo }, scope.operator);
    return oneDo(trx, scope, input.id);
  }
  const doNo = text(input.doNo) ?? (await nextDocumentNumber(trx, 'TMSDO', { warehouseId: scope.warehouseId }));
  if ((await repo.existingDoNos(trx, scope.warehouseId, [doNo])).size) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'doNo', code: 'FIELD_NOT_UNIQUE' }]);
  const [id] = await repo.insertDos(trx, scope, [{ ...values, do_no: doNo }], scope.operator);
  return oneDo(trx, scope, id);
}

export async function deleteDeliveryOrder(trx: Transaction<DB>, scope: TmsScope, id: number): Promise<{ deleted: number }> {
  const [old] = await repo.lockDos(trx, scope, [id]);
  if (!old) throw new AppError('NO_RECORD');
  if (old.status !== 'unplanned') throw new AppError('TMS_DO_LOCKED', { doNo: old.do_no, status: old.status });
  await repo.deleteDo(trx, id);
  return { deleted: 1 };
}

/** The columns of an import file, by the header text of its first row (English or the field's own name). */
const IMPORT_COLUMNS: Record<string, keyof DoInput> = {
  'do no': 'doNo',
  do_no: 'doNo',
  customer: 'customerName',
  'customer name': 'customerName',
  customer_name: 'customerName',
  consignee: 'consigneeName',
  'consignee name': 'consigneeName',
  consignee_name: 'consigneeName',
  address: 'address',
  city: 'city',
  latitude: 'latitude',
  lat: 'latitude',
  longitude: 'longitude',
  lng: 'longitude',
  'window from': 'windowFrom',
  window_from: 'windowFrom',
  'window to': 'windowTo',
  window_to: 'windowTo',
  'weight kg': 'weightKg',
  weight_kg: 'weightKg',
  weight: 'weightKg',
  'volume m3': 'volumeM3',
  volume_m3: 'volumeM3',
  volume: 'volumeM3',
  pallets: 'palletCount',
  'pallet count': 'palletCount',
  pallet_count: 'palletCount',
  remarks: 'remarks',
};

const DECIMAL = /^\d{1,9}(\.\d{1,3})?$/;

function cellText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * Imports the rows of a sheet (first row: the column headers) as unplanned delivery orders. Every
 * row is checked first; when any fails, nothing is saved and every failing row is answered with its
 * row number (the sheet's, the header being row 1).
 */
export async function importDeliveryOrders(trx: Transaction<DB>, scope: TmsScope, sheet: unknown[][]): Promise<{ imported: number; doNos: string[] }> {
  const [header, ...body] = sheet;
  const columns = (header ?? []).map((cell) => IMPORT_COLUMNS[cellText(cell).toLowerCase()]);
  const problems: FieldError[] = [];
  if (!columns.includes('customerName')) problems.push({ field: 'row 1', code: 'TMS_ROW_REQUIRED', params: { row: 1, column: 'customer' } });
  const rows: Array<{ row: number; values: DoValues | null; doNo: string | null }> = [];
  body.forEach((cells, index) => {
    const row = index + 2;
    if (cells.every((c) => cellText(c) === '')) return;
    const raw: Partial<Record<keyof DoInput, string>> = {};
    columns.forEach((column, i) => {
      if (column) raw[column] = cellText(cells[i]);
    });
    const fail = (code: 'TMS_ROW_REQUIRED' | 'TMS_ROW_INVALID', column: string, value = '') => problems.push({ field: `row ${row}`, code, params: { row, column, value } });
    const before = problems.length;
    if (!raw.customerName) fail('TMS_ROW_REQUIRED', 'customer');
    for (const [column, limit] of [['latitude', 90], ['longitude', 180]] as const) {
      const value = raw[column];
      if (value && (!/^-?\d{1,3}(\.\d{1,6})?$/.test(value) || Math.abs(Number(value)) > limit)) fail('TMS_ROW_INVALID', column, value);
    }
    for (const column of ['weightKg', 'volumeM3'] as const) if (raw[column] && !DECIMAL.test(raw[column])) fail('TMS_ROW_INVALID', column, raw[column]);
    if (raw.palletCount && !/^\d{1,6}$/.test(raw.palletCount)) fail('TMS_ROW_INVALID', 'palletCount', raw.palletCount);
    for (const column of ['windowFrom', 'windowTo'] as const) if (raw[column] && Number.isNaN(Date.parse(raw[column]))) fail('TMS_ROW_INVALID', column, raw[column]);
    if (raw.windowFrom && raw.windowTo && Date.parse(raw.windowFrom) > Date.parse(raw.windowTo)) fail('TMS_ROW_INVALID', 'windowTo', raw.windowTo);
    for (const [column, value] of Object.entries(raw)) if (value && value.length > 500) fail('TMS_ROW_INVALID', column, value.slice(0, 20));
    if (problems.length > before) {
      rows.push({ row, values: null, doNo: raw.doNo || null });
      return;
    }
    const values = valuesOf({
      customerName: raw.customerName!,
      consigneeName: raw.consigneeName,
      address: raw.address,
      city: raw.city,
      latitude: raw.latitude ? Number(raw.latitude) : null,
      longitude: raw.longitude ? Number(raw.longitude) : null,
      windowFrom: raw.windowFrom ? new Date(raw.windowFrom).toISOString() : null,
      windowTo: raw.windowTo ? new Date(raw.windowTo).toISOString() : null,
      weightKg: raw.weightKg || null,
      volumeM3: raw.volumeM3 || null,
      palletCount: raw.palletCount ? Number(raw.palletCount) : null,
      remarks: raw.remarks,
    });
    rows.push({ row, values: { ...values, do_no: raw.doNo ?? '' }, doNo: raw.doNo || null });
  });
  if (rows.length === 0 && problems.length === 0) problems.push({ field: 'file', code: 'FIELD_REQUIRED' });
  if (rows.length > 5000) throw new AppError('UPLOAD_TOO_LARGE');
  // A number twice in the file, or already in the warehouse.
  const given = rows.map((r) => r.doNo).filter((n): n is string => n !== null);
  const taken = await repo.existingDoNos(trx, scope.warehouseId, [...new Set(given)]);
  const seen = new Set<string>();
  for (const r of rows) {
    if (r.doNo === null) continue;
    if (taken.has(r.doNo) || seen.has(r.doNo)) problems.push({ field: `row ${r.row}`, code: 'TMS_ROW_DUPLICATE', params: { row: r.row, value: r.doNo } });
    seen.add(r.doNo);
  }
  if (problems.length > 0) {
    problems.sort((a, b) => Number(a.params?.row ?? 0) - Number(b.params?.row ?? 0));
    throw new AppError('TMS_IMPORT_REJECTED', { rows: new Set(problems.map((p) => p.field)).size }, problems);
  }
  const values: DoValues[] = [];
  for (const r of rows) values.push({ ...r.values!, do_no: r.doNo ?? (await nextDocumentNumber(trx, 'TMSDO', { warehouseId: scope.warehouseId })) });
  await repo.insertDos(trx, scope, values, scope.operator);
  return { imported: values.length, doNos: values.map((v) => v.do_no) };
}

/** Makes an unplanned delivery order of each shipped sales order (these, or all of the warehouse) that has none yet. */
export async function createFromShippedOrders(trx: Transaction<DB>, scope: TmsScope, soIds?: number[]): Promise<{ created: number; doNos: string[] }> {
  const orders = await repo.shippedOrdersWithoutDo(trx, scope, soIds, 500);
  const values: DoValues[] = [];
  for (const order of orders) {
    const address = order.ship_to_address_en?.trim() || order.ship_to_address_cn?.trim() || null;
    values.push({
      do_no: await nextDocumentNumber(trx, 'TMSDO', { warehouseId: scope.warehouseId }),
      customer_name: order.ship_to_name?.trim() || order.order_no,
      consignee_name: order.ship_to_name,
      address,
      city: address ? (address.split(/,\s*|\r?\n/).filter(Boolean).at(-1) ?? null) : null,
      so_id: Number(order.id),
      so_no: order.order_no,
      weight_kg: new Decimal(order.weight_kg ?? 0).toDecimalPlaces(3).toString(),
      pallet_count: Number(order.pallet_count ?? 0),
    });
  }
  await repo.insertDos(trx, scope, values, scope.operator);
  return { created: values.length, doNos: values.map((v) => v.do_no) };
}

// ---------------------------------------------------------------- routes

const OVER: Array<['weight' | 'volume' | 'pallets', 'weightKg' | 'volumeM3' | 'pallets']> = [
  ['weight', 'weightKg'],
  ['volume', 'volumeM3'],
  ['pallets', 'pallets'],
];

function routeOf(row: RouteRow, stops: DeliveryOrder[], warehouse: GeoPoint | null): TmsRoute {
  const weight = stops.reduce((sum, s) => sum.plus(s.weightKg), new Decimal(0));
  const volume = stops.reduce((sum, s) => sum.plus(s.volumeM3), new Decimal(0));
  const pallets = stops.reduce((sum, s) => sum + s.palletCount, 0);
  const capacity = {
    weightKg: row.capacity_weight_kg === null ? null : new Decimal(row.capacity_weight_kg).toString(),
    volumeM3: row.capacity_volume_m3 === null ? null : new Decimal(row.capacity_volume_m3).toString(),
    pallets: row.capacity_pallets === null ? null : Number(row.capacity_pallets),
  };
  const load = { weightKg: weight.toString(), volumeM3: volume.toString(), pallets };
  const over = OVER.filter(([, key]) => capacity[key] !== null && new Decimal(load[key]).greaterThan(capacity[key] ?? 0)).map(([name]) => name);
  const points = stops.filter((s) => s.latitude !== null && s.longitude !== null).map((s) => ({ lat: s.latitude!, lng: s.longitude! }));
  return {
    id: Number(row.id),
    routeNo: row.route_no,
    routeDate: String(row.route_date).slice(0, 10),
    status: row.status,
    vehicleId: row.vehicle_id === null ? null : Number(row.vehicle_id),
    vehiclePlate: row.plate_no,
    driverId: row.driver_id === null ? null : Number(row.driver_id),
    driverName: row.driver_name,
    remarks: row.remarks,
    capacity,
    load,
    over,
    stops,
    distanceKm: Math.round(pathKm(points, warehouse, warehouse !== null) * 100) / 100,
  };
}

/** The warehouse's coordinates, from the system parameters TMS_WAREHOUSE_LAT and TMS_WAREHOUSE_LNG. */
async function warehousePoint(db: Db, warehouseId: number): Promise<GeoPoint | null> {
  const [latText, lngText] = [await warehouseParam(db, warehouseId, 'TMS_WAREHOUSE_LAT'), await warehouseParam(db, warehouseId, 'TMS_WAREHOUSE_LNG')];
  if (latText === null || lngText === null) return null;
  const [lat, lng] = [Number(latText), Number(lngText)];
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

/** The routes of the warehouse (of a day, or open and recent ones, or these), with their stops, load, capacity and distance; the map's settings. */
export async function getRoutes(db: Db, scope: repo.Scope, filter: { date?: string; ids?: number[] }, envTileUrl: string | null): Promise<RoutesAnswer> {
  const rows = await repo.listRoutes(db, scope, filter);
  const stops = await repo.listDos(db, scope, { routeIds: rows.map((r) => Number(r.id)), limit: 10_000 });
  const warehouse = await warehousePoint(db, scope.warehouseId);
  const byRoute = new Map<number, DeliveryOrder[]>();
  for (const stop of stops) {
    const list = byRoute.get(Number(stop.route_id)) ?? [];
    list.push(deliveryOrderOf(stop));
    byRoute.set(Number(stop.route_id), list);
  }
  const tileUrl = (await warehouseParam(db, scope.warehouseId, 'MAP_TILE_URL')) ?? envTileUrl;
  return { routes: rows.map((row) => routeOf(row, byRoute.get(Number(row.id)) ?? [], warehouse)), warehouse, tileUrl };
}

async function oneRoute(db: Db, scope: repo.Scope, id: number): Promise<TmsRoute> {
  const answer = await getRoutes(db, scope, { ids: [id] }, null);
  const route = answer.routes[0];
  if (!route) throw new AppError('NO_RECORD');
  return route;
}

/** The active vehicles (with capacity) and drivers of the warehouse. */
export async function choices(db: Db, scope: repo.Scope): Promise<{ vehicles: Choice[]; drivers: Choice[] }> {
  const vehicles = (await repo.vehiclesOf(db, scope.warehouseId)).filter((v) => v.active);
  const drivers = (await repo.driversOf(db, scope.warehouseId)).filter((d) => d.active);
  return {
    vehicles: vehicles.map((v) => ({
      id: Number(v.id),
      code: v.plate_no,
      name: v.vehicle_type,
      capacity: { weightKg: v.capacity_weight_kg, volumeM3: v.capacity_volume_m3, pallets: v.capacity_pallets === null ? null : Number(v.capacity_pallets) },
    })),
    drivers: drivers.map((d) => ({ id: Number(d.id), code: d.code, name: d.name })),
  };
}

async function checkVehicleAndDriver(db: Db, scope: repo.Scope, vehicleId: number | null, driverId: number | null): Promise<void> {
  const problems: FieldError[] = [];
  if (vehicleId !== null && !(await repo.vehiclesOf(db, scope.warehouseId)).some((v) => Number(v.id) === vehicleId)) problems.push({ field: 'vehicleId', code: 'FIELD_FOREIGN' });
  if (driverId !== null && !(await repo.driversOf(db, scope.warehouseId)).some((d) => Number(d.id) === driverId)) problems.push({ field: 'driverId', code: 'FIELD_FOREIGN' });
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
}

async function openRoute(trx: Transaction<DB>, scope: repo.Scope, id: number) {
  const route = await repo.lockRoute(trx, scope, id);
  if (!route) throw new AppError('NO_RECORD');
  if (route.status === 'confirmed') throw new AppError('TMS_ROUTE_CONFIRMED', { routeNo: route.route_no });
  return route;
}

export interface RouteInput {
  id?: number;
  routeDate: string;
  vehicleId?: number | null;
  driverId?: number | null;
  remarks?: string | null;
}

/** Creates a route (numbered by the ROUTE rule) or changes an open one. */
export async function saveRoute(trx: Transaction<DB>, scope: TmsScope, input: RouteInput): Promise<TmsRoute> {
  const vehicleId = input.vehicleId ?? null;
  const driverId = input.driverId ?? null;
  await checkVehicleAndDriver(trx, scope, vehicleId, driverId);
  const values = { route_date: input.routeDate, vehicle_id: vehicleId, driver_id: driverId, remarks: text(input.remarks) };
  if (input.id !== undefined) {
    await openRoute(trx, scope, input.id);
    await repo.updateRoute(trx, input.id, values, scope.operator);
    return oneRoute(trx, scope, input.id);
  }
  const routeNo = await nextDocumentNumber(trx, 'ROUTE', { warehouseId: scope.warehouseId });
  const id = await repo.insertRoute(trx, scope, { ...values, route_no: routeNo }, scope.operator);
  return oneRoute(trx, scope, id);
}

/** Deletes an open route; its delivery orders become unplanned. */
export async function deleteRoute(trx: Transaction<DB>, scope: TmsScope, id: number): Promise<{ deleted: number }> {
  await openRoute(trx, scope, id);
  const stops = await repo.stopsOf(trx, id);
  await repo.lockDos(trx, scope, stops);
  await repo.removeStops(trx, stops);
  await repo.setDoStatus(trx, stops, 'unplanned', scope.operator);
  await repo.deleteRoute(trx, id);
  return { deleted: 1 };
}

/**
 * Puts delivery orders on an open route, at `position` (0-based, default the end): unplanned ones,
 * or planned ones of another open route (they move). Routes are locked in id order.
 */
export async function addOrdersToRoute(trx: Transaction<DB>, scope: TmsScope, input: { routeId: number; doIds: number[]; position?: number }): Promise<TmsRoute> {
  const doIds = [...new Set(input.doIds)];
  const current = await repo.routeOfDos(trx, doIds);
  const routeIds = [...new Set([input.routeId, ...current.values()])].sort((a, b) => a - b);
  for (const id of routeIds) await openRoute(trx, scope, id);
  const orders = await repo.lockDos(trx, scope, doIds);
  if (orders.length !== doIds.length) throw new AppError('NO_RECORD');
  for (const order of orders) if (order.status !== 'unplanned' && order.status !== 'planned') throw new AppError('TMS_DO_NOT_UNPLANNED', { doNo: order.do_no, status: order.status });
  const moving = new Set(doIds);
  const stops = (await repo.stopsOf(trx, input.routeId)).filter((id) => !moving.has(id));
  const at = Math.min(Math.max(input.position ?? stops.length, 0), stops.length);
  stops.splice(at, 0, ...doIds);
  // The routes they came from keep their order, closed up.
  for (const from of routeIds) {
    if (from === input.routeId) continue;
    const left = (await repo.stopsOf(trx, from)).filter((id) => !moving.has(id));
    await repo.removeStops(trx, doIds.filter((id) => current.get(id) === from));
    await repo.writeStops(trx, from, left, scope.operator);
  }
  await repo.writeStops(trx, input.routeId, stops, scope.operator);
  await repo.setDoStatus(trx, doIds, 'planned', scope.operator);
  return oneRoute(trx, scope, input.routeId);
}

/** Takes a delivery order off an open route: it becomes unplanned, the other stops close up. */
export async function removeOrderFromRoute(trx: Transaction<DB>, scope: TmsScope, input: { routeId: number; doId: number }): Promise<TmsRoute> {
  await openRoute(trx, scope, input.routeId);
  const [order] = await repo.lockDos(trx, scope, [input.doId]);
  const stops = await repo.stopsOf(trx, input.routeId);
  if (!order || !stops.includes(input.doId)) throw new AppError('TMS_DO_NOT_ON_ROUTE', { doNo: order?.do_no ?? String(input.doId) });
  await repo.removeStops(trx, [input.doId]);
  await repo.writeStops(trx, input.routeId, stops.filter((id) => id !== input.doId), scope.operator);
  await repo.setDoStatus(trx, [input.doId], 'unplanned', scope.operator);
  return oneRoute(trx, scope, input.routeId);
}

/** Sorts an open route's stops into the order given, which must name exactly its stops. */
export async function sortWay(trx: Transaction<DB>, scope: TmsScope, input: { routeId: number; doIds: number[] }): Promise<TmsRoute> {
  const route = await openRoute(trx, scope, input.routeId);
  const stops = await repo.stopsOf(trx, input.routeId);
  const same = stops.length === input.doIds.length && new Set(input.doIds).size === stops.length && input.doIds.every((id) => stops.includes(id));
  if (!same) throw new AppError('TMS_STOPS_MISMATCH', { routeNo: route.route_no });
  await repo.writeStops(trx, input.routeId, input.doIds, scope.operator);
  return oneRoute(trx, scope, input.routeId);
}

/** Splits an open route at a stop: that stop and those after it go to a new open route of the same day, vehicle and driver. */
export async function splitRoute(trx: Transaction<DB>, scope: TmsScope, input: { routeId: number; doId: number }): Promise<{ route: TmsRoute; newRoute: TmsRoute }> {
  const route = await openRoute(trx, scope, input.routeId);
  const stops = await repo.stopsOf(trx, input.routeId);
  const at = stops.indexOf(input.doId);
  if (at < 0) throw new AppError('TMS_DO_NOT_ON_ROUTE', { doNo: String(input.doId) });
  if (at === 0) throw new AppError('TMS_SPLIT_AT_FIRST', { routeNo: route.route_no });
  const routeNo = await nextDocumentNumber(trx, 'ROUTE', { warehouseId: scope.warehouseId });
  const newId = await repo.insertRoute(
    trx,
    scope,
    { route_no: routeNo, route_date: String(route.route_date).slice(0, 10), vehicle_id: route.vehicle_id, driver_id: route.driver_id, remarks: route.remarks },
    scope.operator,
  );
  await repo.writeStops(trx, newId, stops.slice(at), scope.operator);
  return { route: await oneRoute(trx, scope, input.routeId), newRoute: await oneRoute(trx, scope, newId) };
}

/** Merges an open route into another open one: its stops follow the target's, and it is deleted. */
export async function mergeRoute(trx: Transaction<DB>, scope: TmsScope, input: { routeId: number; fromRouteId: number }): Promise<TmsRoute> {
  if (input.routeId === input.fromRouteId) throw new AppError('TMS_MERGE_SAME');
  const [first, second] = [input.routeId, input.fromRouteId].sort((a, b) => a - b);
  await openRoute(trx, scope, first);
  await openRoute(trx, scope, second);
  const stops = [...(await repo.stopsOf(trx, input.routeId)), ...(await repo.stopsOf(trx, input.fromRouteId))];
  await repo.writeStops(trx, input.routeId, stops, scope.operator);
  await repo.deleteRoute(trx, input.fromRouteId);
  return oneRoute(trx, scope, input.routeId);
}

/** Confirms an open route with stops (it becomes read-only, its orders confirmed), or opens a confirmed one again. */
export async function setConfirmed(trx: Transaction<DB>, scope: TmsScope, routeId: number, confirmed: boolean): Promise<TmsRoute> {
  const route = await repo.lockRoute(trx, scope, routeId);
  if (!route) throw new AppError('NO_RECORD');
  if (confirmed && route.status === 'confirmed') throw new AppError('TMS_ROUTE_CONFIRMED', { routeNo: route.route_no });
  if (!confirmed && route.status !== 'confirmed') throw new AppError('TMS_ROUTE_NOT_CONFIRMED', { routeNo: route.route_no });
  const stops = await repo.stopsOf(trx, routeId);
  if (confirmed && stops.length === 0) throw new AppError('TMS_ROUTE_EMPTY', { routeNo: route.route_no });
  const orders = await repo.lockDos(trx, scope, stops);
  const delivered = orders.find((o) => o.status === 'delivered');
  if (delivered) throw new AppError('TMS_DO_LOCKED', { doNo: delivered.do_no, status: delivered.status });
  await repo.updateRoute(trx, routeId, { status: confirmed ? 'confirmed' : 'open' }, scope.operator);
  await repo.setDoStatus(trx, stops, confirmed ? 'confirmed' : 'planned', scope.operator);
  return oneRoute(trx, scope, routeId);
}
