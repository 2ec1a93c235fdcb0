import { defineModule } from '../area.js';
import * as m0052 from './migrations/0052_seed_roles.js';
import * as m0061 from './migrations/0061_role_verbs.js';
import * as m0190 from './migrations/0190_role_warehouse_rights.js';
import { roleRoutes } from './role.routes.js';
import { roleVerbWriter } from './role.writer.js';
import './role.tables.js';

/** Roles, their module rights and verbs, and access rules (spec section 6). */
export const roleModule = defineModule({
  name: 'role',
  migrations: { '0052_seed_roles': m0052, '0061_role_verbs': m0061, '0190_role_warehouse_rights': m0190 },
  routes: roleRoutes,
  writers: [roleVerbWriter],
});
