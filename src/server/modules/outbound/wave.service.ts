import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { WaveCandidatesAnswer, WaveFilterOptions } from '../../../common/outbound-api.js';
import type { DB } from '../../db/schema.js';
import { lockInScope } from '../../db/scoped-rows.js';
import type { StockScope } from '../inventory/index.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { lockOrders } from './outbound.repository.js';
import { allocateOrders, type AllocationResult } from './outbound.service.js';
import { refreshWaveStatus } from './open-tasks.js';
import { ALLOCATABLE, TERMINAL_STATUSES, type SoStatus } from './so-status.js';
import {
  cancelOpenTasks,
  findCandidateOrders,
  insertPickTasks,
  insertWave,
  listWaves,
  lockWaveNumbering,
  lockWaves,
  ownerOfProject,
  ordersOfWave,
  refreshWaveProgress,
  SELECTION_CAP,
  setOrdersWave,
  setWaveStatus,
  setWavesReference,
  uncoveredAllocations,
  waveFilterOptions,
  waveNoTaken,
  type OrderFilters,
  type WaveRow,
} from './wave.repository.js';

/**
 * Waves: orders chosen by carrier, ship date, owner and zone (at most
 * 100 at a time) are put on a wave; releasing the wave allocates its orders through the sales
 * order allocation and turns every allocation into a pick task; an order leaves its wave while
 * nothing of it is picked. An order already on a wave is refused ("a wave id already exists on
 * the order").
 */

export async function candidateOrders(db: Kysely<DB>, scope: StockScope, filters: OrderFilters): Promise<WaveCandidatesAnswer> {
  const rows = await findCandidateOrders(db, scope.projectId, scope.warehouseId, filters);
  return { rows: rows.slice(0, SELECTION_CAP), capped: rows.length > SELECTION_CAP, cap: SELECTION_CAP };
}

function checkWaveScope(wave: WaveRow | undefined, scope: StockScope): WaveRow {
  if (!wave) throw new AppError('NO_RECORD');
  if (Number(wave.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return wave;
}

/**
 * The next number of the WAVE rule not yet used in the project. The rule counts per warehouse by
 * default, while orders name their wave by number within the project: a second warehouse's first
 * wave of the day would otherwise take the number of the first warehouse's.
 */
async function newWaveNo(trx: Transaction<DB>, scope: StockScope): Promise<string> {
  await lockWaveNumbering(trx, scope.projectId);
  for (let tries = 0; tries < 1000; tries += 1) {
    const waveNo = await nextDocumentNumber(trx, 'WAVE', { projectId: scope.projectId, warehouseId: scope.warehouseId });
    if (!(await waveNoTaken(trx, scope.projectId, waveNo))) return waveNo;
  }
  // The WAVE rule keeps giving numbers already used (a counter too short for the project's waves).
  throw new AppError('SYSTEM_CONFIG');
}

export interface SaveWaveInput extends OrderFilters {
  waveId?: number | null;
  orderIds: number[];
}

/**
 * /so/wave/save: puts the orders on a wave (a new one numbered by the WAVE rule when `waveId` is
 * absent). Every order must be of the warehouse, not on a wave yet, and not beyond allocated.
 */
export async function saveWave(trx: Transaction<DB>, scope: StockScope, input: SaveWaveInput): Promise<{ waveId: number; waveNo: string; orders: number }> {
  const ids = [...new Set(input.orderIds)];
  if (ids.length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderIds', code: 'FIELD_REQUIRED' }]);
  if (ids.length > SELECTION_CAP) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderIds', code: 'SELECTION_CAP', params: { max: SELECTION_CAP } }]);
  let wave: WaveRow;
  if (input.waveId) {
    wave = checkWaveScope(await lockInScope(trx, 'wave', { projectId: scope.projectId }, input.waveId), scope);
    if (wave.status === 'cancelled' || wave.status === 'picked') throw new AppError('ORDER_STATUS_ERROR', { orderNo: wave.wave_no, status: wave.status });
  } else {
    if (input.ownerId) {
      if (!(await ownerOfProject(trx, scope.projectId, input.ownerId))) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'ownerId', code: 'FIELD_FOREIGN' }]);
    }
    wave = await insertWave(trx, {
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      wave_no: await newWaveNo(trx, scope),
      carrier_code: input.carrierCode ?? null,
      ship_date_from: input.shipDateFrom ?? null,
      ship_date_to: input.shipDateTo ?? null,
      owner_id: input.ownerId ?? null,
      zone: input.zone ?? null,
      by: scope.operator,
    });
  }
  const headers = await lockOrders(trx, scope.projectId, ids);
  if (headers.length !== ids.length) throw new AppError('NO_RECORD');
  for (const h of headers) {
    if (Number(h.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    if (h.wave_id) throw new AppError('WAVE_ID_EXISTS', { orderNo: h.order_no });
    if (!ALLOCATABLE.includes(h.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: h.order_no, status: h.status });
  }
  await setOrdersWave(trx, ids, wave.wave_no, scope.operator);
  await refreshWaveProgress(trx, wave);
  return { waveId: Number(wave.id), waveNo: wave.wave_no, orders: ids.length };
}

/** Creates the pick tasks of what the orders hold and no open task covers yet. */
export async function createPickTasks(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[], waveId: number | null): Promise<number> {
  const rows = (await uncoveredAllocations(trx, soIds)).filter((r) => new Decimal(r.uncovered).greaterThan(0));
  return insertPickTasks(
    trx,
    rows.map((r) => ({
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      wave_id: waveId,
      so_id: r.so_id,
      so_line_id: r.so_line_id,
      balance_id: r.balance_id,
      owner_id: r.owner_id,
      sku_id: r.sku_id,
      lot_id: r.lot_id,
      location_id: r.location_id,
      lpn: r.lpn,
      zone: r.zone,
      pick_seq: r.pick_seq,
      qty: r.uncovered,
      created_by: scope.operator,
      updated_by: scope.operator,
    })),
  );
}

/**
 * Release: allocates every order of the wave that still may be (shortages reported per line, the
 * order left partial allocated) and creates the pick tasks. Releasing again takes what was added
 * or freed since.
 */
export async function releaseWave(trx: Transaction<DB>, scope: StockScope, waveId: number): Promise<{ waveNo: string; status: WaveRow['status']; allocation: AllocationResult; tasks: number }> {
  const wave = checkWaveScope(await lockInScope(trx, 'wave', { projectId: scope.projectId }, waveId), scope);
  if (wave.status === 'cancelled' || wave.status === 'picked') throw new AppError('ORDER_STATUS_ERROR', { orderNo: wave.wave_no, status: wave.status });
  const orders = await ordersOfWave(trx, scope.projectId, wave.wave_no);
  if (orders.length === 0) throw new AppError('DOCUMENT_NO_LINES');
  const toAllocate = orders.filter((o) => ALLOCATABLE.includes(o.status as SoStatus)).map((o) => o.id);
  const allocation = toAllocate.length ? await allocateOrders(trx, scope, toAllocate) : { allocated: '0', shortages: [], statuses: {} };
  const tasks = await createPickTasks(
    trx,
    scope,
    orders.filter((o) => !TERMINAL_STATUSES.includes(o.status as SoStatus)).map((o) => o.id),
    Number(wave.id),
  );
  if (wave.status === 'new') await setWaveStatus(trx, Number(wave.id), 'released', scope.operator, true);
  const status = await refreshWaveStatus(trx, { ...wave, status: wave.status === 'new' ? 'released' : wave.status }, scope.operator);
  return { waveNo: wave.wave_no, status, allocation, tasks };
}

/** Unwave: the order leaves its wave while nothing of it is picked; its open tasks are cancelled, its allocation stays. */
export async function unwaveOrders(trx: Transaction<DB>, scope: StockScope, soIds: readonly number[]): Promise<{ count: number }> {
  const ids = [...new Set(soIds)];
  const headers = await lockOrders(trx, scope.projectId, ids);
  if (headers.length !== ids.length) throw new AppError('NO_RECORD');
  const waveNos = new Set<string>();
  for (const h of headers) {
    if (Number(h.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    if (!h.wave_id) throw new AppError('NO_RECORD');
    if (!ALLOCATABLE.includes(h.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: h.order_no, status: h.status });
    waveNos.add(h.wave_id);
  }
  await cancelOpenTasks(trx, ids, scope.operator);
  await setOrdersWave(trx, ids, null, scope.operator);
  for (const waveNo of waveNos) {
    const wave = await lockInScope(trx, 'wave', { projectId: scope.projectId }, { column: 'wave_no', value: waveNo });
    if (wave) await refreshWaveStatus(trx, wave, scope.operator);
  }
  return { count: ids.length };
}

/**
 * Unwave of a whole wave (the /wave page): every order of the wave that is not ended leaves it,
 * under the rules of `unwaveOrders` (refused, and nothing changed, once anything of one is picked).
 * A wave without such orders is refused.
 */
export async function unwaveWave(trx: Transaction<DB>, scope: StockScope, waveId: number): Promise<{ waveNo: string; count: number }> {
  const wave = checkWaveScope(await lockInScope(trx, 'wave', { projectId: scope.projectId }, waveId), scope);
  const orders = (await ordersOfWave(trx, scope.projectId, wave.wave_no)).filter((o) => !TERMINAL_STATUSES.includes(o.status as SoStatus));
  if (orders.length === 0) throw new AppError('DOCUMENT_NO_LINES');
  const { count } = await unwaveOrders(
    trx,
    scope,
    orders.map((o) => o.id),
  );
  return { waveNo: wave.wave_no, count };
}

/** /wave/batchUpdateRef: sets the reference of up to 100 waves at once. */
export async function batchUpdateReference(trx: Transaction<DB>, scope: StockScope, waveIds: readonly number[], reference: string | null): Promise<{ count: number }> {
  const ids = [...new Set(waveIds)];
  const waves = await lockWaves(trx, scope.projectId, ids);
  if (waves.length !== ids.length) throw new AppError('NO_RECORD');
  for (const w of waves) checkWaveScope(w, scope);
  await setWavesReference(trx, ids, reference, scope.operator);
  return { count: ids.length };
}

/** The owners and carriers the create wave filters offer, of the caller's project (carriers also of its warehouse's orders). */
export async function filterOptions(db: Kysely<DB>, scope: StockScope): Promise<WaveFilterOptions> {
  return waveFilterOptions(db, scope.projectId, scope.warehouseId);
}

export async function wavesOf(db: Kysely<DB>, scope: StockScope, status: string | null) {
  return listWaves(db, scope.projectId, scope.warehouseId, status);
}
