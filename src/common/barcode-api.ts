/** What the SKU and UPC search answers for a scanned or typed code (`GET /api/inventory/barcode`). */

export interface BarcodeStockRow {
  locationCode: string;
  lotNo: string;
  expiryDate: string | null;
  lpn: string;
  onHand: string;
  allocated: string;
  picked: string;
  held: string;
  available: string;
}

export interface BarcodeSku {
  skuId: number;
  skuCode: string;
  description: string;
  ownerCode: string;
  baseUom: string;
  /** The barcode that matched; null when the code is the SKU's own code. */
  barcode: string | null;
  /** The unit the barcode is on, and how many base units it stands for. */
  uom: string;
  perScan: string;
  /** The SKU's stock in the session's warehouse, by location, lot and LPN. */
  stock: BarcodeStockRow[];
  totals: { onHand: string; allocated: string; available: string };
}

export interface BarcodeLookupAnswer {
  /** The code looked up: the GTIN of a GS1-128 label, else the code as typed. */
  code: string;
  /** What a GS1-128 label carried besides its GTIN (batch, expiry, serial, count), or null. */
  gs1: { batch?: string; expiry?: string; serial?: string; count?: number } | null;
  skus: BarcodeSku[];
}
