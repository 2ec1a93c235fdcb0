import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

declare module '../../db/schema.js' {
  interface DB {
    wizard_order: WizardOrderTable;
  }
}

/** A temporary order of an order wizard (migrations/0282_order_wizard.ts). */
export interface WizardOrderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  user_id: number;
  kind: 'wine' | 'nonMer';
  current_step: Generated<number>;
  data: ColumnType<Record<string, unknown>, string, string>;
}
