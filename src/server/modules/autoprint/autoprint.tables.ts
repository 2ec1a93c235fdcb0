import type { Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** The auto print rules (migration 0374). */
declare module '../../db/schema.js' {
  interface DB {
    auto_print_rule: AutoPrintRuleTable;
  }
}

/** What a rule prints on: an order checked complete (its pack list), a load shipped (a delivery note or pack list of each order). */
export const AUTO_PRINT_EVENTS = ['packing.checkCompleted', 'loading.shipped'] as const;
export type AutoPrintEvent = (typeof AUTO_PRINT_EVENTS)[number];

export interface AutoPrintRuleTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  event: AutoPrintEvent;
  template_id: number;
  printer_id: number;
  copies: Generated<number>;
  active: Generated<boolean>;
  remark: string | null;
}
