import type { ColumnType, Generated } from 'kysely';
import type { Audit, ContactAddress, Id } from '../../../db/schema.js';

/** The tables of the access area; its migrations create them. */
declare module '../../../db/schema.js' {
  interface DB {
    organization: OrganizationTable;
    project: ProjectTable;
    warehouse: WarehouseTable;
    project_warehouse: ProjectWarehouseTable;
    user_organization: UserOrganizationTable;
    user_project: UserProjectTable;
    user_warehouse: UserWarehouseTable;
    sys_module: SysModuleTable;
    audit_log: AuditLogTable;
  }
}

export interface OrganizationTable extends Audit {
  id: Id;
  code: string;
  name: string;
}

export interface ProjectTable extends Audit {
  id: Id;
  organization_id: number;
  code: string;
  name: string;
  nav_layout: Generated<'left' | 'top'>;
  /** Migration 0020. */
  description: string | null;
  active: Generated<boolean>;
}

export interface WarehouseTable extends Audit, ContactAddress {
  id: Id;
  organization_id: number;
  code: string;
  name: string;
  nav_layout: 'left' | 'top' | null;
  time_zone: Generated<string>;
  /** Migration 0020 (the /whs page), with the address and contact columns. */
  description: string | null;
  active: Generated<boolean>;
}

export interface ProjectWarehouseTable {
  project_id: number;
  warehouse_id: number;
}

/** Migration 0062 gave grants a key and audit columns; (user_id, organization_id) stays unique. */
export interface UserOrganizationTable extends Audit {
  id: Id;
  user_id: number;
  organization_id: number;
}

/** Migration 0062 gave grants a key and audit columns; (user_id, project_id) stays unique. */
export interface UserProjectTable extends Audit {
  id: Id;
  user_id: number;
  project_id: number;
}

/** Migration 0062 gave grants a key and audit columns; (user_id, warehouse_id) stays unique. */
export interface UserWarehouseTable extends Audit {
  id: Id;
  user_id: number;
  warehouse_id: number;
}

export interface SysModuleTable extends Audit {
  id: Id;
  code: string;
  parent_code: string | null;
  title_key: string;
  route: string | null;
  /** The right whose view shows the entry; null means the entry's own code. */
  right_name: string | null;
  sequence: Generated<number>;
  enabled: Generated<boolean>;
}

export interface AuditLogTable {
  id: Id;
  at: Generated<Date>;
  actor_user_id: number | null;
  action: string;
  target_user_id: number | null;
  details: ColumnType<unknown, string | null, string | null> | null;
}
