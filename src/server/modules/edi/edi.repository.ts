import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { whereInScope } from '../../db/scoped-rows.js';
import type { RowFilter } from '../../../../engine/server/index.js';
import type { Audit, DB } from '../../db/schema.js';
import type { EdiMessageTable, EdiPartnerTable } from './edi.tables.js';

/** The name of a setting's control number sequence. */
function sequenceOf(partnerId: number) {
  if (!Number.isSafeInteger(partnerId) || partnerId < 1) throw new Error(`EDI partner id ${partnerId} is not an id`);
  return sql.id(`edi_control_${partnerId}`);
}

export async function findPartnerOfOwner(db: Kysely<DB> | Transaction<DB>, projectId: number, ownerId: number) {
  return db.selectFrom('edi_partner').selectAll().where('project_id', '=', projectId).where('owner_id', '=', ownerId).executeTakeFirst();
}

type PartnerValues = Omit<Insertable<EdiPartnerTable>, 'id' | 'created_at' | 'created_by' | 'updated_at' | 'updated_by'>;

/** Adds or changes the setting of an owner; answers its id. */
export async function upsertPartner(trx: Transaction<DB>, values: PartnerValues, by: string): Promise<number> {
  const row = await trx
    .insertInto('edi_partner')
    .values({ ...values, created_by: by, updated_by: by })
    .onConflict((oc) => oc.constraint('edi_partner_owner_key').doUpdateSet({ ...values, updated_by: by, updated_at: sql`now()` }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Makes the setting's control number sequence unless it exists. Two transactions making it at once
 * queue on an advisory lock, so the second finds the first's.
 */
export async function ensureControlSequence(trx: Transaction<DB>, partnerId: number): Promise<void> {
  const name = `edi_control_${partnerId}`;
  const found = await sql<{ r: string | null }>`select to_regclass(${name})::text as r`.execute(trx);
  if (found.rows[0]?.r) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
  await sql`create sequence if not exists ${sequenceOf(partnerId)} minvalue 1 maxvalue 999999999 no cycle`.execute(trx);
}

/** The next control number of a setting: a sequence hands each out once, also to concurrent callers and to callers that roll back. */
export async function nextControlNumber(trx: Transaction<DB>, partnerId: number): Promise<number> {
  const { rows } = await sql<{ n: string }>`select nextval(${sql.lit(`edi_control_${partnerId}`)}::regclass)::text as n`.execute(trx);
  return Number(rows[0].n);
}

/** The columns a new message is given; the rest are the queue's (status, attempts, ...) and the audit's. */
type MessageValues = Omit<Insertable<EdiMessageTable>, 'id' | 'status' | 'attempts' | 'last_error' | 'claimed_until' | 'sent_at' | keyof Audit>;

export async function insertMessage(
  trx: Transaction<DB>,
  row: MessageValues,
  by: string,
): Promise<number> {
  const inserted = await trx.insertInto('edi_message').values({ ...row, created_by: by, updated_by: by }).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** The endpoint of an EDI setting and whether it is active. */
export async function findPartnerEndpoint(trx: Transaction<DB>, partnerId: number) {
  return trx.selectFrom('edi_partner').select(['endpoint', 'active']).where('id', '=', partnerId).executeTakeFirstOrThrow();
}

/**
 * Locks the messages of a project's warehouse among `ids`, in id order, with their setting's
 * endpoint: a sender of the queue's job waits for the lock and then finds them changed.
 */
export async function lockMessagesInScope(trx: Transaction<DB>, scope: { projectId: number; warehouseId: number }, ids: number[]) {
  return trx
    .selectFrom('edi_message as m')
    .innerJoin('edi_partner as p', 'p.id', 'm.partner_id')
    .select(['m.id', 'm.kind', 'm.reference', 'm.content', 'm.attempts', 'p.endpoint', 'p.active'])
    .$call((q) => whereInScope(q, 'm', scope))
    .where('m.id', 'in', ids)
    .orderBy('m.id')
    .forUpdate('m')
    .execute();
}

/** Counts an attempt made while the message is locked. */
export async function countAttempt(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.updateTable('edi_message').set({ attempts: sql`attempts + 1` }).where('id', '=', id).execute();
}

/** One message of a project's warehouse with its raw content. */
export async function findMessageContent(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, id: number) {
  return db
    .selectFrom('edi_message')
    .select(['id', 'kind', 'reference', 'interchange_control', 'content'])
    .$call((q) => whereInScope(q, 'edi_message', scope))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The EDI log page is scoped by warehouse; this keeps it to the session's project as well (administrators too). */
export const sessionProjectMessages: RowFilter = (session, key) =>
  session.projectId === null ? sql`false` : sql`${key} in (select m.id from edi_message m where m.project_id = ${session.projectId})`;
