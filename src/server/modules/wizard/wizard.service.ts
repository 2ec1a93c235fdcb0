import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { TempOrder, WizardData, WizardKind } from '../../../common/wizard-api.js';
import type { DB } from '../../db/schema.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { checkAddress, createOrder } from '../outbound/index.js';
import * as repo from './wizard.repository.js';

export type { TempOrder, WizardData, WizardKind };

/** Whose temporary order: the signed-in user, in the session's project and warehouse. */
export interface WizardPlace {
  userId: number;
  login: string;
  projectId: number;
  warehouseId: number;
}

/** The steps: 1 customer and consignee, 2 items, 3 courier and VAS instructions, 4 delivery, 5 review and submit. */
export const LAST_STEP = 5;

const blank = (value: string | null | undefined) => value === undefined || value === null || value.trim() === '';

/** Refuses a step's data that is not complete or not valid, naming each field. */
async function checkStep(db: Kysely<DB> | Transaction<DB>, place: WizardPlace, kind: WizardKind, step: number, data: WizardData): Promise<void> {
  const details: FieldError[] = [];
  if (step === 1) {
    if (data.ownerId === undefined) details.push({ field: 'ownerId', code: 'FIELD_REQUIRED' });
    else if (!(await repo.findOwner(db, place.projectId, data.ownerId))) details.push({ field: 'ownerId', code: 'FIELD_FOREIGN' });
    if (blank(data.shipToName)) details.push({ field: 'shipToName', code: 'FIELD_REQUIRED' });
    if (data.consigneeId !== undefined && data.consigneeId !== null && !(await repo.hasPartner(db, place.projectId, 'consignee', { id: data.consigneeId }))) {
      details.push({ field: 'consigneeId', code: 'FIELD_FOREIGN' });
    }
    if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
    // The sales order's address rule: an English address in Latin letters, a Chinese one in Chinese, at least one.
    checkAddress({ ship_to_address_en: data.shipToAddressEn ?? '', ship_to_address_cn: data.shipToAddressCn ?? '' });
    return;
  }
  if (step === 2) {
    const lines = data.lines ?? [];
    if (data.ownerId === undefined) details.push({ field: 'ownerId', code: 'FIELD_REQUIRED' });
    if (lines.length === 0) details.push({ field: 'lines', code: 'FIELD_REQUIRED' });
    const seen = new Set<number>();
    lines.forEach((line, index) => {
      if (seen.has(line.skuId)) details.push({ field: `lines[${index}].skuId`, code: 'FIELD_NOT_UNIQUE' });
      seen.add(line.skuId);
      const qty = new Decimal(line.qty);
      if (qty.lte(0) || qty.decimalPlaces() > 4) details.push({ field: `lines[${index}].qty`, code: 'FIELD_RANGE', params: { min: '0.0001' } });
    });
    if (!details.length && data.ownerId !== undefined) {
      const items = await repo.itemsWithStock(db, place, kind, data.ownerId, '', lines.length, [...seen]);
      const known = new Set(items.map((i) => i.id));
      lines.forEach((line, index) => {
        if (!known.has(line.skuId)) details.push({ field: `lines[${index}].skuId`, code: 'FIELD_FOREIGN' });
      });
    }
  } else if (step === 3) {
    if (blank(data.carrierCode)) details.push({ field: 'carrierCode', code: 'FIELD_REQUIRED' });
    else if (!(await repo.hasPartner(db, place.projectId, 'carrier', { code: data.carrierCode! }))) details.push({ field: 'carrierCode', code: 'FIELD_FOREIGN' });
    const codes = new Set((await repo.vasInstructions(db)).map((v) => v.code));
    (data.vasInstructions ?? []).forEach((code, index) => {
      if (!codes.has(code)) details.push({ field: `vasInstructions[${index}]`, code: 'FIELD_FOREIGN' });
    });
  } else if (step === 4) {
    if (blank(data.requiredShipDate)) details.push({ field: 'requiredShipDate', code: 'FIELD_REQUIRED' });
    else if (data.requiredShipDate! < new Date().toISOString().slice(0, 10)) details.push({ field: 'requiredShipDate', code: 'FIELD_RANGE', params: { min: new Date().toISOString().slice(0, 10) } });
  }
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
}

async function answer(db: Kysely<DB> | Transaction<DB>, place: WizardPlace, kind: WizardKind, row: { current_step: number; data: unknown; updated_at?: Date } | undefined): Promise<TempOrder> {
  if (!row) return { kind, currentStep: 1, data: {}, updatedAt: null, items: [] };
  const data = (row.data ?? {}) as WizardData;
  const skuIds = (data.lines ?? []).map((line) => line.skuId);
  const items = data.ownerId !== undefined && skuIds.length ? await repo.itemsWithStock(db, place, kind, data.ownerId, '', skuIds.length, skuIds) : [];
  return { kind, currentStep: row.current_step, data, updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null, items };
}

/** The user's temporary order of this wizard, or an empty one at step 1. */
export async function tempOrder(db: Kysely<DB>, place: WizardPlace, kind: WizardKind): Promise<TempOrder> {
  return answer(db, place, kind, await repo.findTempOrder(db, place, kind));
}

/**
 * Saves what a step entered and moves the wizard on: the step's data is checked, merged into the
 * temporary order, and the current step becomes the next one (the last step stays the last).
 */
export async function saveStep(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind, step: number, data: WizardData): Promise<TempOrder> {
  const row = await repo.lockTempOrder(trx, place, kind);
  const current = row?.current_step ?? 1;
  if (step > current) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'step', code: 'FIELD_RANGE', params: { max: current } }]);
  const merged: WizardData = { ...((row?.data ?? {}) as WizardData), ...data };
  // Another owner makes the chosen items and consignee meaningless: they are cleared.
  const before = (row?.data ?? {}) as WizardData;
  if (step === 1 && before.ownerId !== undefined && merged.ownerId !== before.ownerId && data.lines === undefined) merged.lines = [];
  await checkStep(trx, place, kind, step, merged);
  const next = Math.min(LAST_STEP, Math.max(current, step + 1));
  await repo.upsertTempOrder(trx, place, kind, next, merged as Record<string, unknown>);
  return answer(trx, place, kind, { current_step: next, data: merged, updated_at: new Date() });
}

/** Moves the wizard back to an earlier step (or forward to a step already reached), keeping the data. */
export async function setCurrentStep(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind, step: number): Promise<TempOrder> {
  const row = await repo.lockTempOrder(trx, place, kind);
  const data = (row?.data ?? {}) as WizardData;
  for (let earlier = 1; earlier < step; earlier++) {
    try {
      await checkStep(trx, place, kind, earlier, data);
    } catch {
      throw new AppError('VALIDATION_FAILED', {}, [{ field: 'step', code: 'FIELD_RANGE', params: { max: earlier } }]);
    }
  }
  await repo.upsertTempOrder(trx, place, kind, step, data as Record<string, unknown>);
  return answer(trx, place, kind, { current_step: step, data, updated_at: new Date() });
}

/** Clears the temporary order: the wizard starts again at step 1. */
export async function clearTempOrder(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind): Promise<{ cleared: boolean }> {
  return { cleared: (await repo.deleteTempOrder(trx, place, kind)) > 0 };
}

/**
 * Submits the temporary order: every step is checked again, a sales order numbered by the SO
 * numbering rule is created with its lines through the outbound area, and the temporary order is
 * deleted, in one transaction. The VAS instructions and their text go in the order's remark.
 */
export async function submitOrder(trx: Transaction<DB>, place: WizardPlace, kind: WizardKind): Promise<{ soId: number; orderNo: string }> {
  const row = await repo.lockTempOrder(trx, place, kind);
  if (!row) throw new AppError('NO_RECORD');
  const data = row.data as WizardData;
  for (let step = 1; step < LAST_STEP; step++) await checkStep(trx, place, kind, step, data);
  const items = await repo.itemsWithStock(trx, place, kind, data.ownerId!, '', data.lines!.length, data.lines!.map((l) => l.skuId));
  const byId = new Map(items.map((i) => [i.id, i]));
  const instructions = [...(data.vasInstructions ?? []), ...(blank(data.instructionText) ? [] : [data.instructionText!.trim()])];
  const remark = [data.remark?.trim(), instructions.length ? `VAS: ${instructions.join('; ')}` : ''].filter(Boolean).join('\n') || null;
  const orderNo = await nextDocumentNumber(trx, 'SO', { projectId: place.projectId, warehouseId: place.warehouseId });
  const actor = { projectId: place.projectId, warehouseId: place.warehouseId, login: place.login };
  const soId = await createOrder(trx, actor, {
    orderNo,
    ownerId: data.ownerId!,
    customerOrderNo: data.customerOrderNo?.trim() || null,
    shipToName: data.shipToName!.trim(),
    shipToAddressEn: data.shipToAddressEn?.trim() || null,
    shipToAddressCn: data.shipToAddressCn?.trim() || null,
    carrierCode: data.carrierCode ?? null,
    requiredShipDate: data.requiredShipDate ?? null,
    remark,
    lines: data.lines!.map((line) => ({ skuCode: byId.get(line.skuId)!.code, qty: line.qty, uom: byId.get(line.skuId)!.base_uom })),
  });
  await repo.deleteTempOrder(trx, place, kind);
  return { soId, orderNo };
}
