import type { Generated } from 'kysely';
import type { Audit, Id } from '../../../db/schema.js';

/** The tables of the role area; its migrations create them. */
declare module '../../../db/schema.js' {
  interface DB {
    role: RoleTable;
    role_permission: RolePermissionTable;
    access_rule: AccessRuleTable;
    role_rule: RoleRuleTable;
    user_role: UserRoleTable;
    right_verb: RightVerbTable;
    role_verb: RoleVerbTable;
  }
}

export interface RoleTable extends Audit {
  id: Id;
  name: string;
  role_type: Generated<string>;
  role_level: Generated<number>;
  description: string | null;
  enabled: Generated<boolean>;
}

export interface RolePermissionTable {
  id: Id;
  role_id: number;
  module_code: string;
  sub_module_code: string | null;
  can_view: Generated<boolean>;
  can_add: Generated<boolean>;
  can_edit: Generated<boolean>;
  can_delete: Generated<boolean>;
}

export interface AccessRuleTable extends Audit {
  id: Id;
  name: string;
  rule_type: string;
  description: string | null;
}

export interface RoleRuleTable {
  role_id: number;
  rule_id: number;
}

/** Migration 0062 gave grants a key and audit columns; (user_id, role_id) stays unique. */
export interface UserRoleTable extends Audit {
  id: Id;
  user_id: number;
  role_id: number;
}

/** The verbs areas declare (`outbound.so:allocate`), synced from the module list at start. */
export interface RightVerbTable {
  code: string;
  module_code: string;
  sub_module_code: string | null;
  verb: string;
  label_code: string;
}

/** A verb a role grants, beside its view/add/edit/delete rows. */
export interface RoleVerbTable extends Audit {
  id: Id;
  role_id: number;
  right_code: string;
}
