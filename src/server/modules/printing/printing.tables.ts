import type { Generated } from 'kysely';
import type { SendQueueColumns, SendStatus } from '../../area-kit/queued-sender.js';
import type { Audit, Id } from '../../db/schema.js';

/** The printing area's tables; migration 0310 creates them. */
declare module '../../db/schema.js' {
  interface DB {
    printer: PrinterTable;
    print_job: PrintJobTable;
  }
}

/** `raw_zpl`: a label printer taking ZPL on its raw port; `pdf`: a printer taking PDF documents on its raw port. */
export type PrinterType = 'raw_zpl' | 'pdf';

export interface PrinterTable extends Audit {
  id: Id;
  warehouse_id: number;
  name: string;
  /** The print server the printer is attached to, as the operators know it. */
  server_name: string | null;
  ip: string;
  port: Generated<number>;
  printer_type: Generated<PrinterType>;
  active: Generated<boolean>;
  /** The warehouse's printer for carton labels printed without naming a printer (at most one per warehouse). */
  auto_print_labels: Generated<boolean>;
}

export interface PrintJobTable extends Audit, SendQueueColumns {
  id: Id;
  warehouse_id: number;
  printer_id: number;
  /** What the document is, e.g. `cartonLabel`. */
  document_kind: string;
  /** What it was printed for (an SSCC, an order number), for finding it again. */
  reference: string | null;
  /** The bytes sent to the printer as they are (ZPL text in UTF-8, or a PDF). */
  payload: Uint8Array;
  /** The error code of the last failed attempt (PRINTER_UNAVAILABLE). */
  last_error_code: string | null;
  sent_by: string | null;
  /** The job this one is a reprint of. */
  copy_of: number | null;
}

/** `queued`: waiting to be sent (again); `sent`: the printer took it; `failed`: given up after too many attempts, sent again only on request. */
export type PrintJobStatus = SendStatus;
