import type { Kysely, Transaction } from 'kysely';
import type { NotificationView } from '../../../common/api-types.js';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import { parseRightName, type RightName } from '../../../common/rights.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { EventBus } from '../../events/events.js';
import type { SessionUser } from '../../http/access.js';
import { translate } from '../../http/i18n.js';
import { hasRight } from '../identity/index.js';
import {
  countNotifications,
  findEnabledUserIds,
  findNotifications,
  findProjectUsers,
  insertNotifications,
  markAllRead,
  markRead,
  projectExists,
  type NotificationRow,
} from './notification.repository.js';

declare module '../../events/events.js' {
  interface DomainEvents {
    /** Notifications were stored for these users; every node pushes to their open browsers. */
    'notification.raised': { userIds: number[] };
    /** A user read one or all of their notifications; the user's other open browsers update their count. */
    'notification.read': { userId: number };
  }
}

/** A title or body: a locale key rendered in the reader's language, or plain text. */
export type NotificationText = { key: string } | { text: string };

export interface RaiseNotificationInput {
  /** The users to notify, by id. */
  userIds?: number[];
  /** Or every user holding this right in the project (administrators included). */
  right?: { right: RightName; projectId: number };
  /** What kind of notification it is, e.g. `job`, `inbound`, `approval`, `message`. */
  category: string;
  title: NotificationText;
  body?: NotificationText;
  /** Parameters of the title's and body's locale texts. */
  params?: Record<string, string | number>;
  /** The /page route that opens what the notification is about, e.g. `job` or `asn?asnNo=A1`. */
  link?: string;
  /** The project the notification is about (defaults to `right.projectId`). */
  projectId?: number | null;
  /** Who raised it (audit columns); default `system`. */
  by?: string;
  /**
   * Refuse user ids that are not enabled users (a person addressing users by hand); by default
   * they are left out, so that a disabled account never rolls back the caller's work.
   */
  refuseUnknownUsers?: boolean;
}

const CATEGORY = /^[a-z][A-Za-z0-9.]{0,63}$/;
const LOCALE_KEY = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+){0,9}$/;
const LINK = /^[A-Za-z][A-Za-z0-9_]{0,63}([?#][^\s]{0,400})?$/;
const MAX_RECIPIENTS = 10_000;

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {}, [{ field, code: 'VALIDATION_FAILED', message }]);
}

function checkText(field: string, value: NotificationText | undefined, max: number): void {
  if (value === undefined) return;
  if ('key' in value) {
    if (!LOCALE_KEY.test(value.key)) throw invalid(field, 'not a locale key');
  } else if (typeof value.text !== 'string' || !value.text.trim() || value.text.length > max) {
    throw invalid(field, `text of 1 to ${max} characters`);
  }
}

/** The users a notification goes to: the ids given (enabled users only) and the holders of the right. */
async function recipients(trx: Transaction<DB>, input: RaiseNotificationInput): Promise<number[]> {
  const ids = new Set<number>();
  if (input.userIds?.length) {
    const asked = [...new Set(input.userIds)];
    if (asked.some((id) => !Number.isSafeInteger(id) || id < 1)) throw invalid('userIds', 'user ids are positive integers');
    const found = await findEnabledUserIds(trx, asked);
    if (input.refuseUnknownUsers && found.length !== asked.length) throw new AppError('NO_RECORD');
    for (const id of found) ids.add(id);
  }
  if (input.right) {
    if (!parseRightName(input.right.right)) throw invalid('right', 'not a right name');
    if (!(await projectExists(trx, input.right.projectId))) throw new AppError('NO_RECORD');
    for (const user of await findProjectUsers(trx, input.right.projectId)) {
      if (ids.has(user.id)) continue;
      if (await hasRight(trx, { userId: user.id, isAdmin: user.isAdmin }, input.right.right)) ids.add(user.id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Raises a notification inside the caller's transaction (any area may call it): one row per
 * recipient, and a `notification.raised` event that, once the transaction commits, every app node
 * turns into a push to the recipients' open browsers. A rolled-back transaction notifies no one.
 * Answers the recipients (none when the right is held by no one).
 */
export async function raiseNotification(trx: Transaction<DB>, events: EventBus, input: RaiseNotificationInput): Promise<{ userIds: number[]; ids: number[] }> {
  if (!CATEGORY.test(input.category)) throw invalid('category', 'lower camel case, up to 64 characters');
  checkText('title', input.title, 500);
  checkText('body', input.body, 4000);
  if (input.link !== undefined && !LINK.test(input.link)) throw invalid('link', 'a /page route');
  if (!input.userIds?.length && !input.right) throw invalid('userIds', 'user ids or a right');
  const userIds = await recipients(trx, input);
  if (userIds.length > MAX_RECIPIENTS) throw invalid('userIds', `at most ${MAX_RECIPIENTS} recipients`);
  if (!userIds.length) return { userIds, ids: [] };
  const title = input.title;
  const body = input.body;
  const ids = await insertNotifications(
    trx,
    userIds.map((userId) => ({
      userId,
      projectId: input.projectId ?? input.right?.projectId ?? null,
      category: input.category,
      titleKey: 'key' in title ? title.key : null,
      titleText: 'text' in title ? title.text.trim() : null,
      bodyKey: body && 'key' in body ? body.key : null,
      bodyText: body && 'text' in body ? body.text.trim() : null,
      params: input.params ?? {},
      link: input.link ?? null,
      by: input.by ?? 'system',
    })),
  );
  await events.emit(trx, 'notification.raised', { userIds });
  return { userIds, ids };
}

/** A notification as its reader sees it, in the reader's language (the browser's bell reads the same type). */
export type { NotificationView };

function paramsOf(row: NotificationRow): Record<string, string | number> {
  const value = typeof row.params === 'string' ? (JSON.parse(row.params) as unknown) : row.params;
  return value && typeof value === 'object' ? (value as Record<string, string | number>) : {};
}

export function present(row: NotificationRow, language: Language): NotificationView {
  const params = paramsOf(row);
  return {
    id: Number(row.id),
    category: row.category,
    title: row.title_key !== null ? translate(language, row.title_key, params) : (row.title_text ?? ''),
    body: row.body_key !== null ? translate(language, row.body_key, params) : row.body_text,
    link: row.link,
    read: row.read_at !== null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The bell: the user's latest notifications and how many are unread. */
export async function latestNotifications(db: Kysely<DB>, user: SessionUser, language: Language, limit: number) {
  const [rows, unread] = await Promise.all([findNotifications(db, user.userId, { limit, offset: 0, unreadOnly: false }), countNotifications(db, user.userId, true)]);
  return { unread, items: rows.map((row) => present(row, language)) };
}

/** The notification list ("view more"): one page of the user's notifications, all or the unread ones. */
export async function listNotifications(db: Kysely<DB>, user: SessionUser, language: Language, input: { page: number; pageSize: number; unreadOnly: boolean }) {
  const [rows, total, unread] = await Promise.all([
    findNotifications(db, user.userId, { limit: input.pageSize, offset: (input.page - 1) * input.pageSize, unreadOnly: input.unreadOnly }),
    countNotifications(db, user.userId, input.unreadOnly),
    countNotifications(db, user.userId, true),
  ]);
  return { total, unread, page: input.page, pageSize: input.pageSize, items: rows.map((row) => present(row, language)) };
}

/** Marks one of the user's own notifications read; another user's answers as if it did not exist. */
export async function readNotification(db: Kysely<DB>, events: EventBus, user: SessionUser, id: number): Promise<{ unread: number }> {
  return inTransaction(db, async (trx) => {
    const found = await markRead(trx, user.userId, id, user.loginAccount);
    if (!found) throw new AppError('NO_RECORD');
    if (found === 'changed') await events.emit(trx, 'notification.read', { userId: user.userId });
    return { unread: await countNotifications(trx, user.userId, true) };
  });
}

export async function readAllNotifications(db: Kysely<DB>, events: EventBus, user: SessionUser): Promise<{ marked: number; unread: number }> {
  return inTransaction(db, async (trx) => {
    const marked = await markAllRead(trx, user.userId, user.loginAccount);
    if (marked) await events.emit(trx, 'notification.read', { userId: user.userId });
    return { marked, unread: 0 };
  });
}
