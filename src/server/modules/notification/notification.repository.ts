import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { NotificationTable } from './notification.tables.js';

export type NotificationRow = Selectable<NotificationTable>;

export interface NewNotification {
  userId: number;
  projectId: number | null;
  category: string;
  titleKey: string | null;
  titleText: string | null;
  bodyKey: string | null;
  bodyText: string | null;
  params: Record<string, string | number>;
  link: string | null;
  by: string;
}

/** Stores one notification for each user; answers the new ids in the order given. */
export async function insertNotifications(trx: Transaction<DB>, rows: NewNotification[]): Promise<number[]> {
  if (!rows.length) return [];
  const inserted = await trx
    .insertInto('notification')
    .values(
      rows.map((r) => ({
        user_id: r.userId,
        project_id: r.projectId,
        category: r.category,
        title_key: r.titleKey,
        title_text: r.titleText,
        body_key: r.bodyKey,
        body_text: r.bodyText,
        params: JSON.stringify(r.params),
        link: r.link,
        created_by: r.by,
        updated_by: r.by,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => Number(r.id));
}

/** Which of the ids are enabled users (a notification for anyone else is refused). */
export async function findEnabledUserIds(db: Kysely<DB>, userIds: number[]): Promise<number[]> {
  if (!userIds.length) return [];
  const rows = await db.selectFrom('app_user').select('id').where('id', 'in', userIds).where('enabled', '=', true).execute();
  return rows.map((r) => Number(r.id));
}

/** Enabled users who work in the project, and the administrators (who hold every right everywhere). */
export async function findProjectUsers(db: Kysely<DB>, projectId: number): Promise<Array<{ id: number; isAdmin: boolean }>> {
  const rows = await db
    .selectFrom('app_user as u')
    .select(['u.id', 'u.is_admin'])
    .where('u.enabled', '=', true)
    .where((eb) =>
      eb.or([
        eb('u.is_admin', '=', true),
        eb.exists(eb.selectFrom('user_project as up').select('up.user_id').whereRef('up.user_id', '=', 'u.id').where('up.project_id', '=', projectId)),
      ]),
    )
    .orderBy('u.id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), isAdmin: r.is_admin }));
}

/** The user's notifications, newest first. */
export async function findNotifications(
  db: Kysely<DB>,
  userId: number,
  options: { limit: number; offset: number; unreadOnly: boolean },
): Promise<NotificationRow[]> {
  let query = db.selectFrom('notification').selectAll().where('user_id', '=', userId);
  if (options.unreadOnly) query = query.where('read_at', 'is', null);
  return query.orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute();
}

export async function countNotifications(db: Kysely<DB>, userId: number, unreadOnly: boolean): Promise<number> {
  let query = db.selectFrom('notification').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId);
  if (unreadOnly) query = query.where('read_at', 'is', null);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks one notification of the user read: false when the user has no such notification, 'same' when it was read already. */
export async function markRead(trx: Transaction<DB>, userId: number, id: number, by: string): Promise<false | 'same' | 'changed'> {
  const row = await trx.selectFrom('notification').select(['id', 'read_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return false;
  if (row.read_at !== null) return 'same';
  await trx
    .updateTable('notification')
    .set({ read_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: by })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
  return 'changed';
}

/** Marks every unread notification of the user read; answers how many changed. */
export async function markAllRead(trx: Transaction<DB>, userId: number, by: string): Promise<number> {
  const result = await trx
    .updateTable('notification')
    .set({ read_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: by })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function projectExists(db: Kysely<DB>, projectId: number): Promise<boolean> {
  const row = await db.selectFrom('project').select('id').where('id', '=', projectId).executeTakeFirst();
  return row !== undefined;
}
