import Decimal from 'decimal.js';
import type { Kysely } from 'kysely';
import type { BarcodeLookupAnswer, BarcodeSku } from '../../../common/barcode-api.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { readBarcode, skusOfBarcode } from '../masterdata/index.js';
import { ownerCodes, stockOfSkus } from './barcode.repository.js';
import { availableOf } from './inventory.service.js';

/**
 * The SKU and UPC search: any code a person types or scans (a SKU code, a UPC or EAN, the GTIN-14
 * of a case, a GS1-128 label in either form) answers every SKU of the project it names, with what
 * one scan of it means in base units, and the SKU's stock in the session's warehouse by location,
 * lot and licence plate. A GS1 label that does not parse is a wrong barcode format; a code that
 * names no SKU is an invalid SKU.
 */
export async function lookupBarcode(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, scanned: string): Promise<BarcodeLookupAnswer> {
  const read = readBarcode(scanned);
  if (!read.ok) throw new AppError(scanned.trim() ? 'BARCODE_FORMAT' : 'INVALID_SKU');
  const found = await skusOfBarcode(db, scope.projectId, read.code, { gs1Label: read.gs1 !== null });
  if (found.length === 0) throw new AppError('INVALID_SKU');
  // One entry per SKU: the first match says what the code means for it.
  const skus = [...new Map(found.map((f) => [f.skuId, f])).values()].slice(0, 20);
  const owners = await ownerCodes(db, [...new Set(skus.map((s) => s.ownerId))]);
  const stock = await stockOfSkus(db, scope, skus.map((s) => s.skuId));
  const plain = (value: Decimal.Value) => new Decimal(value).toString();
  const answers = skus.map((sku): BarcodeSku => {
    const rows = stock.filter((r) => Number(r.sku_id) === sku.skuId);
    const sum = (pick: (r: (typeof rows)[number]) => Decimal.Value) => rows.reduce((total, r) => total.plus(pick(r)), new Decimal(0)).toString();
    return {
      skuId: sku.skuId,
      skuCode: sku.skuCode,
      description: sku.description,
      ownerCode: owners.get(sku.ownerId) ?? '',
      baseUom: sku.baseUom,
      barcode: sku.barcode,
      uom: sku.uom,
      perScan: plain(sku.perScan),
      stock: rows.map((r) => ({
        locationCode: r.location_code,
        lotNo: r.lot_no,
        expiryDate: r.expiry_date,
        lpn: r.lpn,
        onHand: plain(r.on_hand_qty),
        allocated: plain(r.allocated_qty),
        picked: plain(r.picked_qty),
        held: plain(r.held_qty),
        available: availableOf(r).toString(),
      })),
      totals: { onHand: sum((r) => r.on_hand_qty), allocated: sum((r) => r.allocated_qty), available: sum((r) => availableOf(r)) },
    };
  });
  const gs1 = read.gs1 === null ? null : { batch: read.gs1.batch, expiry: read.gs1.expiry, serial: read.gs1.serial, count: read.gs1.count };
  return { code: read.code, gs1, skus: answers };
}
