/** What the CFS calls answer (`/api/cfs/*`, docs/cfs.md), shared by the server and the CFS screen. */

export type CfsCartonStatus = 'received' | 'packed' | 'loaded';

export interface CfsCarton {
  id: number;
  code: string;
  soId: number;
  orderNo: string;
  status: CfsCartonStatus;
  palletNo: string | null;
  loadNo: string | null;
}

/** An order as the CFS sees it: its status, its CFS fields and how many of its cartons are where. */
export interface CfsOrderStatus {
  soId: number;
  orderNo: string;
  status: string;
  reference: string | null;
  vessel: string | null;
  voyage: string | null;
  etd: string | null;
  cancelReason: string | null;
  cartons: { received: number; packed: number; loaded: number; total: number };
}

export interface CfsPallet {
  id: number;
  palletNo: string;
  sscc: string;
  status: 'open' | 'loaded';
  loadNo: string | null;
  cartons: CfsCarton[];
}

/** A load of the loading area as the container cartons and pallets are scanned onto. */
export interface CfsContainer {
  id: number;
  loadNo: string;
  containerNo: string | null;
  status: string;
  cartons: number;
  pallets: number;
}

export interface CfsScanInAnswer {
  carton: CfsCarton;
  order: CfsOrderStatus;
}

export interface CfsScanPackAnswer {
  pallet: CfsPallet;
  carton: CfsCarton;
}

export interface CfsScanLoadAnswer {
  container: CfsContainer;
  /** The cartons the scan put on the container (a pallet's all). */
  loaded: CfsCarton[];
  palletNo: string | null;
}

export interface CfsCheckAnswer {
  rows: Array<{ orderNo: string; found: boolean; order: CfsOrderStatus | null }>;
}
