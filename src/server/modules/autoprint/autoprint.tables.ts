import type { Generated } from 'kysely';
import type { AutoPrintEvent } from '../../../common/autoprint-api.js';
import type { Audit, Id } from '../../db/schema.js';

/** The auto print rules (migration 0374). */
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
}
