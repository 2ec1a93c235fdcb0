import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { StockScope } from '../inventory/index.js';
import { isActiveCode, nextDocumentNumber, warehouseParam } from '../masterdata/index.js';
import { looksLikeGs1, parseGs1 } from '../../../common/gs1.js';
import { shipToOfOrder } from '../outbound/index.js';
import { nextSscc, printerOfJob, printLabel, sendPrintJobs, type CartonLabel } from '../printing/index.js';
import * as repo from './packing.repository.js';
import type { CartonRow, PalletRow } from './packing.repository.js';
import { cartonLabelOf, WEIGHT_UOM, type LabelOptions, type QueuedLabel } from './packing.service.js';

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
  if (weightUom !== null && !(await isActiveCode(trx, WEIGHT_UOM, weightUom))) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'weightUom', code: 'FIELD_FOREIGN' }]);
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

/** The system parameter holding the tare of an empty pallet, in kilograms. */
export const PALLET_TARE_PARAM = 'PALLET_TARE_KG';

/** Kilograms per unit of the weight units (code master WEIGHT_UOM) a pallet's weight can be worked out in. */
const KG_PER_UNIT: Record<string, string> = { KG: '1', G: '0.001', LB: '0.45359237' };

/**
 * The gross weight of a pallet closed without one: its cartons' gross weights plus the pallet's
 * tare (`PALLET_TARE_KG`, 0 when unset), in the unit asked for, else the cartons' one unit, else
 * kilograms; 4 decimals. A carton without a gross weight or in a unit not convertible leaves the
 * weight to be entered (`VALIDATION_FAILED` on `grossWeight`).
 */
async function computedGrossWeight(trx: Transaction<DB>, scope: StockScope, cartons: CartonRow[], unit: string | null): Promise<{ grossWeight: string; weightUom: string }> {
  const units = new Set(cartons.map((c) => c.weight_uom));
  const uom = unit ?? (units.size === 1 ? [...units][0] : null) ?? 'KG';
  const inUnit = (value: string, from: string | null) => {
    if (from === uom) return new Decimal(value);
    const factor = from === null ? undefined : KG_PER_UNIT[from];
    if (factor === undefined || KG_PER_UNIT[uom] === undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'grossWeight', code: 'FIELD_REQUIRED' }]);
    return new Decimal(value).times(factor).dividedBy(KG_PER_UNIT[uom]);
  };
  let total = new Decimal(0);
  for (const carton of cartons) {
    if (carton.gross_weight === null) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'grossWeight', code: 'FIELD_REQUIRED' }]);
    total = total.plus(inUnit(carton.gross_weight, carton.weight_uom));
  }
  const tare = (await warehouseParam(trx, scope.warehouseId, PALLET_TARE_PARAM)) ?? '0';
  if (!new Decimal(tare).isZero()) total = total.plus(inUnit(tare, 'KG'));
  return { grossWeight: total.toDecimalPlaces(4).toString(), weightUom: uom };
}

/**
 * `/pallet/close`: closes an open pallet that holds cartons, with its gross weight: the one given
 * now, else the one given when it was made, else its cartons' gross weights plus the pallet tare
 * (`computedGrossWeight`). Its label (the pallet's SSCC, its order's ship-to, pallet x of y of the
 * order, the gross weight) is printed on the warehouse's printer for automatic labels, in the same
 * transaction; without one nothing is printed. The answer says which label job was queued
 * (`label`), or null.
 */
export async function closePallet(
  trx: Transaction<DB>,
  scope: StockScope,
  input: { palletId: number; grossWeight?: string | null; weightUom?: string | null },
  options: LabelOptions = {},
): Promise<PalletAnswer & { label: QueuedLabel | null }> {
  const pallet = await openPallet(trx, scope, input.palletId);
  const cartons = await repo.cartonsOfPallet(trx, Number(pallet.id));
  if (cartons.length === 0) throw new AppError('PALLET_EMPTY', { palletNo: pallet.pallet_no });
  const weightUom = input.weightUom?.trim() || null;
  if (weightUom !== null && !(await isActiveCode(trx, WEIGHT_UOM, weightUom))) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'weightUom', code: 'FIELD_FOREIGN' }]);
  const entered = input.grossWeight || pallet.gross_weight;
  const weight = entered ? { grossWeight: entered, weightUom: weightUom ?? pallet.weight_uom } : await computedGrossWeight(trx, scope, cartons, weightUom ?? pallet.weight_uom);
  await repo.updatePallet(trx, Number(pallet.id), { status: 'closed', closed: true, closed_by: scope.operator, gross_weight: weight.grossWeight, weight_uom: weight.weightUom }, scope.operator);
  const closed = (await repo.findPallet(trx, scope, Number(pallet.id)))!;
  const label = () => palletLabelOf(trx, scope, closed);
  const jobId = await printLabel(trx, { warehouseId: scope.warehouseId, projectId: scope.projectId, by: scope.operator, kind: 'pallet', label, auto: true, language: options.language }, { sendWith: options.sendWith });
  const printer = jobId === null ? null : await printerOfJob(trx, scope.warehouseId, jobId);
  return { ...(await palletAnswer(trx, closed)), label: jobId === null || !printer ? null : { jobId, printerId: printer.id, printerName: printer.name } };
}

/** What a closed pallet's label shows: its SSCC, its order's ship-to and number, pallet x of y among the order's pallets, and its gross weight. */
async function palletLabelOf(db: Kysely<DB> | Transaction<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, pallet: PalletRow): Promise<CartonLabel> {
  if (pallet.status !== 'closed') throw new AppError('PALLET_OPEN', { palletNo: pallet.pallet_no });
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
    ...(pallet.gross_weight === null ? {} : { grossWeight: { value: new Decimal(pallet.gross_weight).toString(), uom: pallet.weight_uom ?? '' } }),
  };
}

/**
 * The pallet page's "Print label": the closed pallet's label queued again in the caller's
 * transaction on the warehouse's printer for automatic labels (`PRINTER_NOT_FOUND` without one);
 * the print queue sends it. An open pallet answers `PALLET_OPEN`.
 */
export async function queuePalletLabel(trx: Transaction<DB>, scope: StockScope, palletId: number, language?: Language): Promise<PalletAnswer & { label: QueuedLabel }> {
  const pallet = await repo.findPallet(trx, scope, palletId);
  if (!pallet) throw new AppError('NO_RECORD');
  const label = await palletLabelOf(trx, scope, pallet);
  const jobId = (await printLabel(trx, { warehouseId: scope.warehouseId, projectId: scope.projectId, by: scope.operator, kind: 'pallet', label, language }))!;
  const printer = (await printerOfJob(trx, scope.warehouseId, jobId))!;
  return { ...(await palletAnswer(trx, pallet)), label: { jobId, printerId: printer.id, printerName: printer.name } };
}

/** What `/pack/label/print` answers: the label job, the unit it is of and the printer it went to. */
export interface PrintedLabel {
  jobId: number;
  kind: 'carton' | 'pallet';
  sscc: string;
  /** The carton's (or pallet's) number among its order's, counted from 1, of `cartonCount`. */
  cartonNo: number;
  cartonCount: number;
  orderNo: string;
  palletNo: string | null;
  printerId: number;
  printerName: string;
}

/**
 * `/pack/label/print`: the label of a closed pallet (scanned by pallet number or SSCC) or of a
 * closed carton (number or SSCC) printed again on the chosen printer, else the one for automatic
 * labels. The job is queued in one transaction (the print queue) and sent right after the commit;
 * a printer that does not take it answers `PRINTER_UNAVAILABLE`, the job staying queued. An open
 * pallet has no final label yet (`PALLET_OPEN`), nor an open carton (`CARTON_OPEN`).
 */
export async function printScannedLabel(db: Kysely<DB>, scope: StockScope, input: { code: string; printerId?: number | null }, options: { language?: Language } = {}): Promise<PrintedLabel> {
  if (!input.code.trim()) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'code', code: 'FIELD_REQUIRED' }]);
  const queued = await inTransaction(db, async (trx) => {
    const pallet = await repo.findPalletByCode(trx, scope, scannedUnitCode(input.code));
    const label = pallet ? await palletLabelOf(trx, scope, pallet) : await cartonLabelOf(trx, scope, input.code);
    const kind = pallet ? ('pallet' as const) : ('carton' as const);
    const jobId = (await printLabel(trx, { warehouseId: scope.warehouseId, projectId: scope.projectId, by: scope.operator, kind, label, printerId: input.printerId ?? null, language: options.language }))!;
    const printer = (await printerOfJob(trx, scope.warehouseId, jobId))!;
    return { jobId, kind, label, printer, palletNo: pallet?.pallet_no ?? null };
  });
  const [outcome] = await sendPrintJobs(db, [queued.jobId], { by: scope.operator });
  if (outcome && 'error' in outcome && outcome.error) throw new AppError('PRINTER_UNAVAILABLE');
  const { label, printer } = queued;
  return { jobId: queued.jobId, kind: queued.kind, sscc: label.sscc, cartonNo: label.cartonNo, cartonCount: label.cartonCount, orderNo: label.orderNo, palletNo: queued.palletNo, printerId: printer.id, printerName: printer.name };
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
