/** A carton as the scan-and-pack calls answer it (`/scanPack`, `/pack/scan/*`), on server and screen alike. */
export interface CartonAnswer {
  id: number;
  cartonNo: string;
  cartonType: string | null;
  status: string;
  grossWeight: string | null;
  netWeight: string | null;
  weightUom: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  sscc: string | null;
  trackingNo: string | null;
  /** The RFID card the carton carries, when it was opened with one. */
  cardId: string | null;
  lines: Array<{ soLineId: number; skuId: number; skuCode: string; qty: string }>;
}
