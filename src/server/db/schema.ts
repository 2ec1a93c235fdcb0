import type { ColumnType, Generated } from 'kysely';

/** Columns every business table carries (DESIGN.md section 4). */
export interface Audit {
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export type Id = Generated<number>;
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

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
}

export interface WarehouseTable extends Audit {
  id: Id;
  organization_id: number;
  code: string;
  name: string;
  nav_layout: 'left' | 'top' | null;
  time_zone: Generated<string>;
}

export interface ProjectWarehouseTable {
  project_id: number;
  warehouse_id: number;
}

export interface AppUserTable extends Audit {
  id: Id;
  login_account: string;
  display_name: string;
  email: string | null;
  password_hash: string;
  language: Generated<string>;
  time_zone: Generated<string>;
  is_admin: Generated<boolean>;
  enabled: Generated<boolean>;
}

export interface DB {
  organization: OrganizationTable;
  project: ProjectTable;
  warehouse: WarehouseTable;
  project_warehouse: ProjectWarehouseTable;
  app_user: AppUserTable;
}
