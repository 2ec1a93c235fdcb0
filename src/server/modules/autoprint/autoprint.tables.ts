import type { Generated } from 'kysely';
import type { AutoPrintEvent } from '../../../common/autoprint-api.js';
import type { Audit, Id, NullableTimestamp } from '../../db/schema.js';

/** The auto print rules (migrations 0374 and 0378). */
declare module '../../db/schema.js' {
  interface DB {
    auto_print_rule: AutoPrintRuleTable;
  }
}

export { AUTO_PRINT_EVENTS, type AutoPrintEvent } from '../../../common/autoprint-api.js';

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
  /** Migration 0378: a schedule rule's cron expression and report, and the last time it printed for. */
  cron_expression: string | null;
  report_id: number | null;
  last_tick: NullableTimestamp;
}
