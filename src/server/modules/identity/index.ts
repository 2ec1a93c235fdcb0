/**
 * The public entry of the identity area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { findUserProjects } from './access/access.repository.js';
export { requireForeignInScope } from './access/foreign-scope.repository.js';
export { saveMenuEntry, type MenuEntry } from './access/menu.service.js';
export { createProjectLike, grantProject, setNavLayout } from './access/project.service.js';
export { actionRights, hasRight, requireRight } from './access/rights.js';
export { FOREIGN_ROW_FILTERS, ROW_FILTERS } from './access/row-filters.js';
export { resolveSessionUser } from './auth/auth.sessions.js';
