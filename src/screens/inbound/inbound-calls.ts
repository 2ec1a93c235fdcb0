import type {
  CancelScanAnswer,
  ContainerCartonsAnswer,
  ContainerSkusAnswer,
  DeleteContainerAnswer,
  ReceivableLinesAnswer,
  ReceiveAnswer,
  ReceiveLineRequest,
  ScanInAnswer,
  ScanWaysAnswer,
} from '../../common/inbound-api';
import { api } from '../../app/public';

/**
 * The inbound calls of the receiving, scan-in and putaway screens, each with the answer its route
 * handler is typed to give (common/inbound-api.ts). Quiet: the screens show failures themselves,
 * on their feedback line.
 */

const post = <T>(path: string, body: object) => api<T>(path, { body, quiet: true });

/** Open ASN lines whose ASN number, SKU or barcode matches the text (more than 4 characters). */
export const receivableLines = (text: string) => post<ReceivableLinesAnswer>('/rec/batch/editor', { text });

export const receiveLines = (lines: ReceiveLineRequest[]) => post<ReceiveAnswer>('/inbound/batch/receive', { lines });

/** What is scanned of one carton: its EPC, carton type and anti-counterfeit code. */
export interface CartonScan {
  epc?: string;
  cartonType?: string;
  antiCounterfeitCode?: string;
}

/**
 * Scans a container or carton id; a carton is scanned with its EPC, carton type and anti-counterfeit
 * code, a whole container with those of each carton (`cartons`) and a carton type common to all.
 */
export const scanInCode = (code: string, details: CartonScan & { cartons?: ({ cartonId: string } & CartonScan)[] } = {}) =>
  post<ScanInAnswer>('/scanin/id', { code, ...details });
/** The ways to scan in the server offers: by whole container or carton by carton. */
export const scanWays = async () => (await api<ScanWaysAnswer>('/scanIn/way', { quiet: true })).ways;
export const containerCartons = (containerId: string) => post<ContainerCartonsAnswer>('/scan/table', { containerId });
/** The SKUs of a container with their announced quantity. */
export const containerSkus = (containerId: string) => post<ContainerSkusAnswer>('/scanIn/listSku', { containerId });
/** Scanned against received quantities of a container, by SKU. */
export const scannedSoFar = (containerId: string) => post<ContainerSkusAnswer>('/scan/show', { containerId });
export const cancelScan = (code: string) => post<CancelScanAnswer>('/scan/cancel', { code });
export const deleteContainer = (containerId: string) => post<DeleteContainerAnswer>('/scan/deleteContainerId', { containerId });
export const receiveContainer = (containerId: string, locationCode: string, lpn: string | null) => post<ReceiveAnswer>('/scanin/convertToRec', { containerId, locationCode, lpn });

/** The receipt numbers of a receipt answer, for the success message. */
export const receiptNos = (answer: ReceiveAnswer) => answer.receipts.map((r) => r.receiptNo).join(', ');
