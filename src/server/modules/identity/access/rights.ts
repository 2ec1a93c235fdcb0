import type { Kysely } from 'kysely';
import { parseRightName, RIGHT_ACTIONS, isRightAction, type ParsedRight as ParsedRightName, type RightAction, type RightName } from '../../../../common/rights.js';
import type { DB } from '../../../db/schema.js';
import { AppError } from '../../../../common/errors.js';
import type { SessionUser } from '../../../http/access.js';
import type { RightChecker } from '../../area.js';
import { findUserPermissions, userHoldsVerb, type PermissionRow } from './access.repository.js';

export interface ParsedRight extends ParsedRightName {
  action: RightAction;
}

/** Splits `sku:edit` or `masterdata.sku:edit` into module, sub-module and one of the four actions. */
export function parseRight(right: RightName): ParsedRight {
  const parsed = parseRightName(right);
  if (!parsed || !isRightAction(parsed.action)) throw new Error(`not a right name: ${right}`);
  return parsed as ParsedRight;
}

/** Whether one permission row grants the action; any right on a module includes viewing it. */
export function rowGrants(row: PermissionRow, action: RightAction): boolean {
  switch (action) {
    case 'view':
      return row.can_view || row.can_add || row.can_edit || row.can_delete;
    case 'add':
      return row.can_add;
    case 'edit':
      return row.can_edit;
    case 'delete':
      return row.can_delete;
  }
}

/**
 * Whether the permission rows grant a right. A sub-module's own rows, when a role has any, decide
 * for that sub-module; otherwise the module's rows do (per-module and per-sub-module add, delete and
 * edit rights).
 */
export function rowsGrant(rows: PermissionRow[], right: ParsedRight): boolean {
  const moduleRows = rows.filter((r) => r.module_code === right.module);
  if (right.subModule !== null) {
    const subRows = moduleRows.filter((r) => r.sub_module_code === right.subModule);
    if (subRows.length) return subRows.some((r) => rowGrants(r, right.action));
  }
  return moduleRows.filter((r) => r.sub_module_code === null).some((r) => rowGrants(r, right.action));
}

/**
 * Every action's right on one module or `module.subModule`, from a single read of the user's
 * permissions (a screen asks for all four at once to decide which buttons to show).
 */
export async function actionRights(
  db: Kysely<DB>,
  user: Pick<SessionUser, 'userId' | 'isAdmin'>,
  target: string,
): Promise<Record<RightAction, boolean>> {
  const parsed = parseRight(`${target}:view`);
  const rows = user.isAdmin ? [] : await findUserPermissions(db, user.userId, parsed.module);
  const grants = (action: RightAction) => user.isAdmin || rowsGrant(rows, { ...parsed, action });
  return Object.fromEntries(RIGHT_ACTIONS.map((action) => [action, grants(action)])) as Record<RightAction, boolean>;
}

/**
 * Checks a right programmatically (for services whose rule depends on the data, e.g. adding versus
 * editing through one save call). Administrators hold every right.
 */
export async function hasRight(db: Kysely<DB>, user: Pick<SessionUser, 'userId' | 'isAdmin'>, right: RightName): Promise<boolean> {
  if (user.isAdmin) return true;
  const named = parseRightName(right);
  if (!named) throw new Error(`not a right name: ${right}`);
  // An area's own verb (`outbound.so:allocate`) is granted one by one on the role screen, never by a page right.
  if (!isRightAction(named.action)) return userHoldsVerb(db, user.userId, right);
  const parsed = parseRight(right);
  return rowsGrant(await findUserPermissions(db, user.userId, parsed.module), parsed);
}

/** Throws FORBIDDEN unless the caller holds the right (for services that decide on the data). */
export async function requireRight(db: Kysely<DB>, user: SessionUser, right: RightName): Promise<void> {
  if (!(await hasRight(db, user, right))) throw new AppError('FORBIDDEN', { right });
}

/** What the access area contributes to the access check of every request. */
export const rightChecker: RightChecker = { hasRight };
