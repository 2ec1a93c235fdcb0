/** What the loading calls answer (`/loading/*`), on server and screen alike. */

export interface LoadHeader {
  id: number;
  loadNo: string;
  status: 'open' | 'loaded' | 'shipped';
  containerNo: string | null;
  sealNo: string | null;
  containerType: string | null;
  vessel: string | null;
  voyage: string | null;
  mbl: string | null;
  hbl: string | null;
  driver: string | null;
  etd: string | null;
  eta: string | null;
  portOfLoading: string | null;
  portOfDischarge: string | null;
  portOfDestination: string | null;
  loadFrom: string | null;
  loadTo: string | null;
  remarks: string | null;
  loadedCartonQty: number;
  shippedAt: string | null;
}

/** The header fields a load is created or saved with. */
export const HEADER_FIELDS = [
  'containerNo',
  'sealNo',
  'containerType',
  'vessel',
  'voyage',
  'mbl',
  'hbl',
  'driver',
  'etd',
  'eta',
  'portOfLoading',
  'portOfDischarge',
  'portOfDestination',
  'loadFrom',
  'loadTo',
  'remarks',
] as const;

export type HeaderField = (typeof HEADER_FIELDS)[number];
export type HeaderValues = Partial<Record<HeaderField, string | null>>;

export interface LoadCartonRow {
  cartonId: number;
  cartonNo: string;
  sscc: string | null;
  palletNo: string | null;
  palletSscc: string | null;
  soId: number;
  orderNo: string;
  orderStatus: string;
  qty: string;
}

export interface LoadOrderRow {
  soId: number;
  orderNo: string;
  status: string;
  cartons: number;
  qty: string;
}

export interface LoadTable {
  load: LoadHeader;
  cartons: LoadCartonRow[];
  orders: LoadOrderRow[];
}

export interface ScanAnswer {
  load: LoadHeader;
  loaded: Array<{ cartonNo: string; sscc: string | null; orderNo: string }>;
  orders: Array<{ soId: number; orderNo: string; status: string }>;
}

export interface WaveCarton {
  cartonId: number;
  cartonNo: string;
  sscc: string | null;
  status: string;
  palletNo: string | null;
  orderNo: string;
  orderStatus: string;
  qty: string;
  loadNo: string | null;
}
