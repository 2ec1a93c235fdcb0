import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { StockScope } from '../inventory/index.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { looksLikeGs1, parseGs1 } from '../../../common/gs1.js';
import { shipToOfOrder } from '../outbound/index.js';
import { nextSscc, printerOfJob, printLabel, type CartonLabel } from '../printing/index.js';
import * as repo from './packing.repository.js';
import type { CartonRow, PalletRow } from './packing.repository.js';
import { WEIGHT_UOM, type LabelOptions, type QueuedLabel } from './packing.service.js';

/**
 * Pallets: closed cartons of one order go onto a pallet that stands at a location of the warehouse.
 * A pallet is numbered by the PALLET numbering rule and has its own SSCC (extension digit 1), so the
 * pallet is shipped and scanned as one unit; as an SSCC already used holds no mixed-pack orders, a
 * pallet takes the cartons of the order of its first carton only. Only closed cartons (they have
 * their SSCC) of the pallet's project and warehouse go on, each on one pallet at a time; a closed
 * pallet takes nothing and gives nothing back. Nothing here moves stock: the cartons' stock stays
 * on the cartons' licence plates.
 */

/** The SSCC extension digit of a pallet (a carton's is 0). */
export const PALLET_SSCC_EXTENSION = 1;

export interface PalletAnswer {
  id: number;
  palletNo: string;
  sscc: string;
  palletType: string | null;
  locationId: number;
  soId: number | null;
  status: string;
  length: string | null;
  width: string | null;
  height: string | null;
  grossWeight: string | null;
  weightUom: string | null;
  cartons: Array<{ id: number; cartonNo: string; sscc: string | null; grossWeight: string | null }>;
}

const num = (value: string | null): string | null => (value === null ? null : new Decimal(value).toString());

async function palletAnswer(db: Kysely<DB> | Transaction<DB>, pallet: PalletRow): Promise<PalletAnswer> {
  const cartons = await repo.cartonsOfPallet(db, Number(pallet.id));
  return {
    id: Number(pallet.id),
    palletNo: pallet.pallet_no,
    sscc: pallet.sscc,
    palletType: pallet.pallet_type,
    locationId: Number(pallet.location_id),
    soId: pallet.so_id === null ? null : Number(pallet.so_id),
    status: pallet.status,
    length: num(pallet.length),
    width: num(pallet.width),
    height: num(pallet.height),
    grossWeight: num(pallet.gross_weight),
    weightUom: pallet.weight_uom,
    cartons: cartons.map((c) => ({ id: Number(c.id), cartonNo: c.carton_no, sscc: c.sscc, grossWeight: num(c.gross_weight) })),
  };
}

export interface CreatePalletInput {
  locationCode: string;
  palletType?: string | null;
  length?: string | null;
  width?: string | null;
  height?: string | null;
  grossWeight?: string | null;
  weightUom?: string | null;
}

/** `/pallet/create`: a new open pallet at a location of the warehouse, with its number and its SSCC. */
export async function createPallet(trx: Transaction<DB>, scope: StockScope, input: CreatePalletInput): Promise<PalletAnswer> {
  const code = input.locationCode.trim();
  if (!code) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'locationCode', code: 'FIELD_REQUIRED' }]);
  const location = await repo.locationByCode(trx, scope.warehouseId, code);
  if (!location) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'locationCode', code: 'FIELD_FOREIGN' }]);
  const weightUom = input.weightUom?.trim() || null;
  if (weightUom !== null && !(await repo.isActiveCode(trx, WEIGHT_UOM, weightUom))) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'weightUom', code: 'FIELD_FOREIGN' }]);
  const palletNo = await nextDocumentNumber(trx, 'PALLET', { warehouseId: scope.warehouseId, projectId: scope.projectId });
  const sscc = await nextSscc(trx, { warehouseId: scope.warehouseId, extensionDigit: PALLET_SSCC_EXTENSION });
  const pallet = await repo.insertPallet(
    trx,
    {
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      pallet_no: palletNo,
      sscc,
      pallet_type: input.palletType?.trim() || null,
      location_id: location.id,
      length: input.length ?? null,
      width: input.width ?? null,
      height: input.height ?? null,
      gross_weight: input.grossWeight ?? null,
      weight_uom: weightUom,
    },
    scope.operator,
  );
  return palletAnswer(trx, pallet);
}

/** The pallet of the scope, locked; NO_RECORD when it is not there, PALLET_CLOSED when closed. */
async function openPallet(trx: Transaction<DB>, scope: StockScope, palletId: number): Promise<PalletRow> {
  const pallet = await repo.findPallet(trx, scope, palletId, true);
  if (!pallet) throw new AppError('NO_RECORD');
  if (pallet.status !== 'open') throw new AppError('PALLET_CLOSED', { palletNo: pallet.pallet_no });
  return pallet;
}

/**
 * What a scan of a carton or a pallet names: its number, or its SSCC, also as the scanner hands
 * on the GS1-128 label's barcode (AI 00 with its SSCC, raw or in brackets).
 */
export function scannedUnitCode(scanned: string): string {
  const text = scanned.trim();
  if (!looksLikeGs1(text)) return text;
  const parsed = parseGs1(text);
  return parsed.ok && parsed.data.sscc ? parsed.data.sscc : text;
}

/** The carton a scan names (its number or SSCC) in the scope, locked after the pallet. */
async function scannedCarton(trx: Transaction<DB>, scope: StockScope, code: string): Promise<CartonRow> {
  const text = scannedUnitCode(code);
  if (!text) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'carton', code: 'FIELD_REQUIRED' }]);
  const carton = await repo.findCartonByCode(trx, scope, text, true);
  if (!carton) throw new AppError('NO_RECORD');
  return carton;
}

/** `/pallet/addCarton`: a closed carton, not on a pallet, of the pallet's order (or any order while the pallet is empty) goes onto the open pallet. */
export async function addCartonToPallet(trx: Transaction<DB>, scope: StockScope, input: { palletId: number; carton: string }): Promise<PalletAnswer> {
  const pallet = await openPallet(trx, scope, input.palletId);
  const carton = await scannedCarton(trx, scope, input.carton);
  if (carton.status !== 'closed' || carton.sscc === null) throw new AppError('CARTON_OPEN', { cartonNo: carton.carton_no });
  if (carton.pallet_id !== null) {
    const palletNo = (await repo.palletNosOf(trx, [Number(carton.pallet_id)])).get(Number(carton.pallet_id)) ?? '';
    throw new AppError('CARTON_ON_PALLET', { cartonNo: carton.carton_no, palletNo });
  }
  if (pallet.so_id !== null && Number(pallet.so_id) !== Number(carton.so_id)) throw new AppError('SSCC_MIXED_PACK', { sscc: pallet.sscc });
  await repo.setCartonPallet(trx, Number(carton.id), Number(pallet.id), scope.operator);
  if (pallet.so_id === null) await repo.updatePallet(trx, Number(pallet.id), { so_id: Number(carton.so_id) }, scope.operator);
  return palletAnswer(trx, (await repo.findPallet(trx, scope, Number(pallet.id)))!);
}

/** `/pallet/removeCarton`: a carton of the open pallet comes off it; the emptied pallet takes any order again. */
export async function removeCartonFromPallet(trx: Transaction<DB>, scope: StockScope, input: { palletId: number; carton: string }): Promise<PalletAnswer> {
  const pallet = await openPallet(trx, scope, input.palletId);
  const carton = await scannedCarton(trx, scope, input.carton);
  if (carton.pallet_id === null || Number(carton.pallet_id) !== Number(pallet.id)) throw new AppError('CARTON_NOT_ON_PALLET', { cartonNo: carton.carton_no, palletNo: pallet.pallet_no });
  await repo.setCartonPallet(trx, Number(carton.id), null, scope.operator);
  if ((await repo.cartonsOfPallet(trx, Number(pallet.id))).length === 0) await repo.updatePallet(trx, Number(pallet.id), { so_id: null }, scope.operator);
  return palletAnswer(trx, (await repo.findPallet(trx, scope, Number(pallet.id)))!);
}

/**
 * `/pallet/close`: closes an open pallet that holds cartons, with its gross weight when given. Its
 * label (the pallet's SSCC, its order's ship-to, pallet x of y of the order) is printed on the
 * warehouse's printer for automatic labels, in the same transaction; without one nothing is
 * printed. The answer says which label job was queued (`label`), or null.
 */
export async function closePallet(
  trx: Transaction<DB>,
  scope: StockScope,
  input: { palletId: number; grossWeight?: string | null; weightUom?: string | null },
  options: LabelOptions = {},
): Promise<PalletAnswer & { label: QueuedLabel | null }> {
  const pallet = await openPallet(trx, scope, input.palletId);
  if ((await repo.cartonsOfPallet(trx, Number(pallet.id))).length === 0) throw new AppError('PALLET_EMPTY', { palletNo: pallet.pallet_no });
  const weightUom = input.weightUom?.trim() || null;
  if (weightUom !== null && !(await repo.isActiveCode(trx, WEIGHT_UOM, weightUom))) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'weightUom', code: 'FIELD_FOREIGN' }]);
  await repo.updatePallet(
    trx,
    Number(pallet.id),
    { status: 'closed', closed: true, closed_by: scope.operator, ...(input.grossWeight ? { gross_weight: input.grossWeight } : {}), ...(weightUom ? { weight_uom: weightUom } : {}) },
    scope.operator,
  );
  const closed = (await repo.findPallet(trx, scope, Number(pallet.id)))!;
  const label = () => palletLabelOf(trx, scope, closed);
  const jobId = await printLabel(trx, { warehouseId: scope.warehouseId, by: scope.operator, kind: 'pallet', label, auto: true, language: options.language }, { sendWith: options.sendWith });
  const printer = jobId === null ? null : await printerOfJob(trx, scope.warehouseId, jobId);
  return { ...(await palletAnswer(trx, closed)), label: jobId === null || !printer ? null : { jobId, printerId: printer.id, printerName: printer.name } };
}

/** What a pallet's label shows: its SSCC, its order's ship-to and number, and pallet x of y among the order's pallets. */
async function palletLabelOf(db: Kysely<DB> | Transaction<DB>, scope: StockScope, pallet: PalletRow): Promise<CartonLabel> {
  const soId = Number(pallet.so_id);
  const shipTo = await shipToOfOrder(db, scope, soId);
  if (!shipTo) throw new AppError('NO_RECORD');
  const pallets = await repo.palletIdsOfOrder(db, soId);
  return {
    sscc: pallet.sscc,
    shipTo: { name: shipTo.name, lines: shipTo.lines },
    orderNo: shipTo.orderNo,
    cartonNo: pallets.indexOf(Number(pallet.id)) + 1,
    cartonCount: pallets.length,
  };
}

/** `/pallet/find`: the pallet of the scope a scan names (its number or SSCC), with its cartons. Reads only. */
export async function findScannedPallet(db: Kysely<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, code: string): Promise<PalletAnswer> {
  const text = scannedUnitCode(code);
  if (!text) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'code', code: 'FIELD_REQUIRED' }]);
  const pallet = await repo.findPalletByCode(db, scope, text);
  if (!pallet) throw new AppError('NO_RECORD');
  return palletAnswer(db, pallet);
}

/** `/pallet/detail`: the pallet of the scope with its cartons. Reads only. */
export async function palletDetail(db: Kysely<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, palletId: number): Promise<PalletAnswer> {
  const pallet = await repo.findPallet(db, scope, palletId);
  if (!pallet) throw new AppError('NO_RECORD');
  return palletAnswer(db, pallet);
}
