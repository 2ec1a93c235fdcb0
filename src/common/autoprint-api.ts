/**
 * Auto print rules (docs/printing.md, "Auto print"): the events a rule prints on and a rule as
 * `/api/config/ireport/autoPrint/list` answers it. Browser and server read the same types.
 */

/**
 * What a rule prints on: an order checked complete (its pack list), a load shipped (a delivery note
 * or pack list of each order), or a schedule (a report of the project, at each time of its cron
 * expression).
 */
export const AUTO_PRINT_EVENTS = ['packing.checkCompleted', 'loading.shipped', 'schedule'] as const;
export type AutoPrintEvent = (typeof AUTO_PRINT_EVENTS)[number];

export interface AutoPrintRule {
  id: number;
  event: AutoPrintEvent;
  templateId: number;
  printerId: number;
  copies: number;
  active: boolean;
  remark: string | null;
  /** A schedule rule's cron expression (Quartz style, as jobs have) and the report it prints; null for the other events. */
  cron: string | null;
  reportId: number | null;
  updatedAt: string;
  updatedBy: string | null;
}
