import { sql, type Selectable, type Transaction } from 'kysely';
import { lockInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';

/**
 * What purchase orders and ASNs share: a header of the project and its numbered lines. One
 * implementation serves both kinds, named by `DocumentKind`.
 */
export type DocumentKind = 'po' | 'asn';

/** The header table, line table and the lines' column naming their header, of each kind. */
export const DOCUMENT_TABLES = {
  po: { header: 'po', line: 'po_line', parent: 'po_id' },
  asn: { header: 'asn', line: 'asn_line', parent: 'asn_id' },
} as const satisfies Record<DocumentKind, { header: keyof DB; line: keyof DB; parent: string }>;

export type HeaderRow<K extends DocumentKind> = Selectable<DB[(typeof DOCUMENT_TABLES)[K]['header']]>;

/** Locks a header of the project by id: every change of its lines or status queues behind it. */
export async function lockDocument<K extends DocumentKind>(trx: Transaction<DB>, kind: K, projectId: number, id: number): Promise<HeaderRow<K> | undefined> {
  return (await lockInScope(trx, DOCUMENT_TABLES[kind].header, { projectId }, id)) as HeaderRow<K> | undefined;
}

/** The number the next line of a header gets: one above its highest. */
export async function nextLineNo(trx: Transaction<DB>, kind: DocumentKind, headerId: number): Promise<number> {
  const { line, parent } = DOCUMENT_TABLES[kind];
  const { rows } = await sql<{ n: number | string | null }>`select max(line_no) as n from ${sql.table(line)} where ${sql.ref(parent)} = ${headerId}`.execute(trx);
  return Number(rows[0]?.n ?? 0) + 1;
}

/** The quantity columns of each kind's lines that the services add to. */
interface LineQtyColumns {
  po: 'asn_qty';
  asn: 'received_qty' | 'putaway_qty';
}

/** Adds `qty` to a quantity column of one line (what ASNs announce of a PO line, what was put away of an ASN line). */
export async function addToLineQty<K extends DocumentKind>(trx: Transaction<DB>, kind: K, column: LineQtyColumns[K], lineId: number, qty: string, by: string): Promise<void> {
  await sql`update ${sql.table(DOCUMENT_TABLES[kind].line)} set ${sql.ref(column)} = ${sql.ref(column)} + ${qty}::numeric, updated_at = ${new Date()}, updated_by = ${by} where id = ${lineId}`.execute(trx);
}
