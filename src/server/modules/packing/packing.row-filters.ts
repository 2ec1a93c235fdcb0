import { sql } from 'kysely';
import type { RowFilter } from '../../../../engine/server/index.js';

/**
 * Cartons and pallets carry their project and warehouse; the /cmg and /pallet pages are scoped by
 * warehouse, and these keep them to the session's project as well (administrators too): a warehouse
 * may serve several projects, and one project's users see nothing of another's.
 */
const ofSessionProject =
  (table: 'carton' | 'pallet'): RowFilter =>
  (session, key) =>
    session.projectId === null ? sql`false` : sql`${key} in (select x.id from ${sql.table(table)} x where x.project_id = ${session.projectId})`;

export const PACKING_ROW_FILTERS: ReadonlyMap<string, RowFilter> = new Map<string, RowFilter>([
  ['packing.sessionProjectCartons', ofSessionProject('carton')],
  ['packing.sessionProjectPallets', ofSessionProject('pallet')],
]);
