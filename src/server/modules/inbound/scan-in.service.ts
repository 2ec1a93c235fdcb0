import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { ContainerCarton, ContainerSku, ReceiveResult, ScanInAnswer } from '../../../common/inbound-api.js';
import type { DB } from '../../db/schema.js';
import { RECEIVABLE } from './asn-status.js';
import { findAsn } from './asn.repository.js';
import * as repo from './carton.repository.js';
import { assertCartonIdPattern, type Actor, type Scope } from './inbound.common.js';
import { receiveAsnLines } from './receiving.service.js';

/**
 * Scan-in (/scanin/*, /scan/*): the cartons announced on ASN lines are scanned by carton or by
 * container, and the scanned cartons of a container are received at a location in one go.
 */

/** What the operator records of a carton scanned in: its EPC and carton type, and the anti-counterfeit code unless the item is a gift. */
export interface CartonScanDetails {
  epc?: string | null;
  cartonType?: string | null;
  antiCounterfeitCode?: string | null;
}

/**
 * A whole-container scan: the carton type common to its cartons, and per carton id what the operator
 * scanned of that carton (EPC, carton type, anti-counterfeit code).
 */
export interface ContainerScanDetails {
  cartonType?: string | null;
  cartons?: readonly ({ cartonId: string } & CartonScanDetails)[];
}

const text = (value: string | null | undefined) => value?.trim() ?? '';

/**
 * The checks every carton passes to be scanned in, whether scanned alone or with its whole
 * container: its id matches the carton id pattern, EPC and carton type are given, and so is the
 * anti-counterfeit code unless the item is a gift. `field` names the refused input: the field
 * itself for a carton scanned alone, `cartons.<carton id>.<field>` within a container (the carton
 * id is also a parameter of the refusal).
 */
function checkCarton(cartonId: string, values: { epc: string; cartonType: string; antiCounterfeitCode: string }, gift: boolean, inContainer: boolean): void {
  const field = (name: string) => (inContainer ? `cartons.${cartonId}.${name}` : name);
  const params: Record<string, string> = inContainer ? { cartonId } : {};
  if (inContainer) assertCartonIdPattern(cartonId, field('cartonId'));
  if (!values.epc) throw new AppError('EPC_REQUIRED', params, [{ field: field('epc'), code: 'EPC_REQUIRED' }]);
  if (!values.cartonType) throw new AppError('CARTON_TYPE_REQUIRED', params, [{ field: field('cartonType'), code: 'CARTON_TYPE_REQUIRED' }]);
  if (!values.antiCounterfeitCode && !gift) {
    throw new AppError('ANTI_COUNTERFEIT_REQUIRED', params, [{ field: field('antiCounterfeitCode'), code: 'ANTI_COUNTERFEIT_REQUIRED' }]);
  }
}

/**
 * Scanning a carton id marks it scanned, recording its EPC, carton type and anti-counterfeit code
 * (each required, the code not for a gift); scanning a container id marks all its cartons not yet
 * received, each passing the same checks with what the scan gives for that carton (`cartons`),
 * else what an earlier scan recorded on it, else (carton type only) the scan's common `cartonType`. One carton that fails
 * refuses the whole container and nothing changes. An unknown code must still look like a carton
 * id before it is reported as not existing.
 */
export async function scanInId(trx: Transaction<DB>, actor: Actor, code: string, details: CartonScanDetails & ContainerScanDetails = {}): Promise<ScanInAnswer> {
  const id = code.trim();
  const carton = await repo.lockCarton(trx, actor, id);
  if (carton) {
    if (carton.status === 'received') throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
    await assertAsnReceivable(trx, actor, carton.asn_id);
    const values = { epc: text(details.epc), cartonType: text(details.cartonType), antiCounterfeitCode: text(details.antiCounterfeitCode) };
    const gifts = await repo.giftLines(trx, [carton.asn_line_id]);
    checkCarton(carton.carton_id, values, gifts.has(carton.asn_line_id), false);
    if (carton.status === 'open') await repo.setCartonStatus(trx, [carton.id], 'scanned', actor.login);
    await repo.recordCartonScan(trx, carton.id, { epc: values.epc, carton_type: values.cartonType, anti_counterfeit_code: values.antiCounterfeitCode || null });
    return { kind: 'carton', containerId: carton.container_id, cartons: await repo.cartonsOfContainer(trx, actor, carton.container_id) };
  }
  const cartons = await repo.lockCartonsOfContainer(trx, actor, id, ['open', 'scanned']);
  if (cartons.length === 0) {
    assertCartonIdPattern(id, 'code');
    throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  }
  for (const asnId of new Set(cartons.map((c) => c.asn_id))) await assertAsnReceivable(trx, actor, asnId);
  const given = new Map((details.cartons ?? []).map((c) => [c.cartonId.trim(), c]));
  const inContainer = new Set(cartons.map((c) => c.carton_id));
  for (const cartonId of given.keys()) {
    if (!inContainer.has(cartonId)) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED', { cartonId }, [{ field: `cartons.${cartonId}.cartonId`, code: 'CONTAINER_NOT_FOUND_OR_RECEIVED' }]);
  }
  const gifts = await repo.giftLines(trx, [...new Set(cartons.map((c) => c.asn_line_id))]);
  // Every carton is checked before any is written, in carton id order, so the first refusal is the same on every try.
  const checked = [...cartons]
    .sort((a, b) => (a.carton_id < b.carton_id ? -1 : a.carton_id > b.carton_id ? 1 : 0))
    .map((c) => {
      const mine = given.get(c.carton_id);
      const values = {
        epc: text(mine?.epc) || text(c.epc),
        cartonType: text(mine?.cartonType) || text(c.carton_type) || text(details.cartonType),
        antiCounterfeitCode: text(mine?.antiCounterfeitCode) || text(c.anti_counterfeit_code),
      };
      checkCarton(c.carton_id, values, gifts.has(c.asn_line_id), true);
      return { carton: c, values };
    });
  await repo.setCartonStatus(trx, cartons.filter((c) => c.status === 'open').map((c) => c.id), 'scanned', actor.login);
  for (const { carton: c, values } of checked) {
    await repo.recordCartonScan(trx, c.id, { epc: values.epc, carton_type: values.cartonType, anti_counterfeit_code: values.antiCounterfeitCode || null });
  }
  return { kind: 'container', containerId: id, cartons: await repo.cartonsOfContainer(trx, actor, id) };
}

async function assertAsnReceivable(db: Kysely<DB>, actor: Scope, asnId: number) {
  const asn = await findAsn(db, actor, asnId);
  if (!asn || !(RECEIVABLE as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn?.status ?? '' });
}

export async function containerCartons(db: Kysely<DB>, actor: Scope, containerId: string): Promise<ContainerCarton[]> {
  const cartons = await repo.cartonsOfContainer(db, actor, containerId.trim());
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  return cartons;
}

/** The SKUs of a container with their quantities: announced, scanned and received. */
export async function containerSkus(db: Kysely<DB>, actor: Scope, containerId: string): Promise<ContainerSku[]> {
  const cartons = await containerCartons(db, actor, containerId);
  const bySku = new Map<string, { skuCode: string; description: string; cartons: number; qty: Decimal; scannedQty: Decimal; receivedQty: Decimal }>();
  for (const c of cartons) {
    const entry = bySku.get(c.sku_code) ?? { skuCode: c.sku_code, description: c.sku_description, cartons: 0, qty: new Decimal(0), scannedQty: new Decimal(0), receivedQty: new Decimal(0) };
    entry.cartons += 1;
    entry.qty = entry.qty.plus(c.qty);
    if (c.status === 'scanned') entry.scannedQty = entry.scannedQty.plus(c.qty);
    if (c.status === 'received') entry.receivedQty = entry.receivedQty.plus(c.qty);
    bySku.set(c.sku_code, entry);
  }
  return [...bySku.values()].map((e) => ({ ...e, qty: e.qty.toString(), scannedQty: e.scannedQty.toString(), receivedQty: e.receivedQty.toString() }));
}

/** Undoes the scan of a carton, or of every scanned carton of a container. */
export async function cancelScan(trx: Transaction<DB>, actor: Actor, code: string): Promise<number> {
  const carton = await repo.lockCarton(trx, actor, code.trim());
  const cartons = carton ? [carton] : await repo.lockCartonsOfContainer(trx, actor, code.trim(), ['scanned']);
  const scanned = cartons.filter((c) => c.status === 'scanned');
  if (scanned.length === 0) throw new AppError('NO_PICKED_STOCK');
  await repo.setCartonStatus(trx, scanned.map((c) => c.id), 'open', actor.login);
  return scanned.length;
}

/** Removes a container id and its cartons that are not received yet. */
export async function deleteContainer(trx: Transaction<DB>, actor: Actor, containerId: string): Promise<number> {
  const cartons = await repo.lockCartonsOfContainer(trx, actor, containerId.trim(), ['open', 'scanned']);
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  for (const asnId of new Set(cartons.map((c) => c.asn_id))) await assertAsnReceivable(trx, actor, asnId);
  return repo.deleteCartons(trx, cartons.map((c) => c.id));
}

/**
 * Converts the scanned cartons of a container into a receipt at a location: one receipt line per
 * carton (carton id kept on the lot). A container with no scanned carton has nothing to receive:
 * "no picked stock in this container".
 */
export async function convertContainerToReceipt(trx: Transaction<DB>, actor: Actor, containerId: string, locationCode: string, lpn?: string | null): Promise<ReceiveResult[]> {
  const cartons = await repo.lockCartonsOfContainer(trx, actor, containerId.trim(), ['open', 'scanned']);
  const scanned = cartons.filter((c) => c.status === 'scanned');
  if (scanned.length === 0) {
    if (cartons.length === 0 && (await repo.cartonsOfContainer(trx, actor, containerId.trim())).length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
    throw new AppError('NO_PICKED_STOCK');
  }
  const results: ReceiveResult[] = [];
  for (const asnId of [...new Set(scanned.map((c) => c.asn_id))].sort((a, b) => a - b)) {
    const mine = scanned.filter((c) => c.asn_id === asnId);
    const cartonOf = new Map(mine.map((c, i) => [i, [c.id]]));
    const lines = mine.map((c) => ({ asnLineId: c.asn_line_id, qty: c.qty, locationCode, cartonId: c.carton_id, lpn: lpn ?? null }));
    results.push(await receiveAsnLines(trx, actor, asnId, lines, 'scan', cartonOf));
  }
  return results;
}
