import type { FastifyPluginAsync } from 'fastify';
import { defineModule } from '../area.js';
import { identityDemo } from './access/access.demo.js';
import { accessRoutes } from './access/access.routes.js';
import { rightChecker } from './access/rights.js';
import { ROW_FILTERS } from './access/row-filters.js';
import { accountRoutes } from './auth/account.routes.js';
import { purgeExpiredJob } from './auth/auth.jobs.js';
import { authRoutes } from './auth/auth.routes.js';
import { sessionResolver } from './auth/auth.sessions.js';
import { generatePassword, hashPassword } from './auth/password.js';
import { roleRoutes } from './role/role.routes.js';
import { roleVerbWriter } from './role/role.writer.js';
import { userBehaviours } from './user/user.behaviours.js';
import { userRoutes } from './user/user.routes.js';
import { identityErrors } from './identity.errors.js';
import { userAccountWriter } from './user/user.writer.js';
import { userGrantWriter } from './user/user-grant.writer.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_access.js';
import * as m0003 from './migrations/0003_sys_module.js';
import * as m0051 from './migrations/0051_login_failure.js';
import * as m0052 from './migrations/0052_seed_roles.js';
import * as m0061 from './migrations/0061_role_verbs.js';
import * as m0062 from './migrations/0062_user_grant_ids.js';
import * as m0190 from './migrations/0190_role_warehouse_rights.js';
import * as m0220 from './migrations/0220_known_address.js';
import * as m0230 from './migrations/0230_identity_module_code.js';
import './access/access.tables.js';
import './auth/auth.tables.js';
import './role/role.tables.js';
import './user/user.tables.js';

/** Sign-in and account routes first, then the caller's scope and menu, user accounts and roles. */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(accessRoutes);
  await app.register(userRoutes);
  await app.register(roleRoutes);
};

/**
 * Who someone is and what they may do: sign-in, two-step codes, trusted browsers, registration and
 * password changes (`auth/`); organizations, projects, warehouses, the caller's scope, the menu and
 * the audit log, and the right check of every request (`access/`); user accounts and their grants
 * (`user/`, the /user screen through the engine and its writers); roles, their module rights and
 * verbs, and access rules (`role/`).
 */
export const identityModule = defineModule({
  name: 'identity',
  migrations: {
    '0001_foundation': m0001,
    '0002_access': m0002,
    '0003_sys_module': m0003,
    '0051_login_failure': m0051,
    '0052_seed_roles': m0052,
    '0061_role_verbs': m0061,
    '0062_user_grant_ids': m0062,
    '0190_role_warehouse_rights': m0190,
    '0220_known_address': m0220,
    '0230_identity_module_code': m0230,
  },
  routes,
  behaviours: userBehaviours,
  errors: identityErrors,
  writers: [userAccountWriter, userGrantWriter, roleVerbWriter],
  jobs: [purgeExpiredJob],
  sessions: sessionResolver,
  passwords: { generatePassword, hashPassword },
  rightChecker,
  rowFilters: ROW_FILTERS,
  demoData: identityDemo,
  pages: [
    { route: 'user', group: 'setup', opens: { definitionOf: 'identity' } },
    { route: 'role', group: 'setup', opens: { definitionOf: 'identity' } },
    { route: 'all_rule', group: 'setup', opens: { definitionOf: 'identity' } },
  ],
  readModels: [
    { name: 'identity.documentRowFilters', files: ['access/row-filters.ts'], reads: ['asn', 'job', 'job_param', 'job_run'], purpose: 'the named row filters of the pages over ASNs and jobs' },
    { name: 'identity.rolePages', files: ['role/role.repository.ts'], reads: ['page_definition'], purpose: 'the pages whose rights the role screen lists' },
  ],
});
