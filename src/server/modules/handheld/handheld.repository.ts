import { sql, type Kysely, type Transaction } from 'kysely';
import { whereInScope } from '../../db/scoped-rows.js';
import type { DeviceSessionRow, HandheldConfigRow, HandheldDefinition, HandheldFunction } from '../../../common/handheld-api.js';
import type { DB } from '../../db/schema.js';

/** The SQL of the handheld area: configurations, their versions, device sessions, and the location look-ups of the location logic. */

export interface Place {
  projectId: number;
  warehouseId: number;
}

const configColumns = ['c.id', 'c.code', 'c.name', 'c.fn', 'c.status', 'c.published_version', 'c.updated_at'] as const;
type ConfigRowDb = { id: number; code: string; name: string; fn: string; status: string; published_version: number | null; updated_at: Date };
const toRow = (r: ConfigRowDb): HandheldConfigRow => ({
  id: Number(r.id),
  code: r.code,
  name: r.name,
  fn: r.fn as HandheldFunction,
  status: r.status as HandheldConfigRow['status'],
  publishedVersion: r.published_version,
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function listConfigs(db: Kysely<DB>, place: Place): Promise<HandheldConfigRow[]> {
  const rows = await db
    .selectFrom('handheld_config as c')
    .select(configColumns)
    .$call((q) => whereInScope(q, 'c', place))
    .orderBy('c.fn')
    .orderBy('c.code')
    .execute();
  return rows.map(toRow);
}

export async function findConfig(db: Kysely<DB>, place: Place, id: number, lock = false) {
  let query = db
    .selectFrom('handheld_config as c')
    .select([...configColumns, 'c.draft'])
    .where('c.id', '=', id)
    .$call((q) => whereInScope(q, 'c', place));
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? { ...toRow(row), draft: row.draft } : undefined;
}

export async function versionsOf(db: Kysely<DB>, configId: number) {
  const rows = await db.selectFrom('handheld_config_version').select(['version', 'created_at', 'created_by']).where('config_id', '=', configId).orderBy('version', 'desc').execute();
  return rows.map((r) => ({ version: r.version, publishedAt: new Date(r.created_at).toISOString(), publishedBy: r.created_by }));
}

export async function codeTaken(db: Kysely<DB>, place: Place, code: string): Promise<boolean> {
  const row = await db
    .selectFrom('handheld_config')
    .select('id')
    .$call((q) => whereInScope(q, 'handheld_config', place))
    .where(sql`lower(code)`, '=', code.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertConfig(
  trx: Transaction<DB>,
  place: Place,
  values: { code: string; name: string; fn: HandheldFunction; status: string; draft: HandheldDefinition },
  by: string,
): Promise<number> {
  const row = await trx
    .insertInto('handheld_config')
    .values({ project_id: place.projectId, warehouse_id: place.warehouseId, code: values.code, name: values.name, fn: values.fn, status: values.status, draft: JSON.stringify(values.draft), created_by: by, updated_by: by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateDraft(trx: Transaction<DB>, id: number, values: { name: string; status: string; draft: HandheldDefinition }, by: string): Promise<void> {
  await trx
    .updateTable('handheld_config')
    .set({ name: values.name, status: values.status, draft: JSON.stringify(values.draft), updated_by: by, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function insertVersion(trx: Transaction<DB>, configId: number, version: number, definition: HandheldDefinition, by: string): Promise<void> {
  await trx
    .insertInto('handheld_config_version')
    .values({ config_id: configId, version, definition: JSON.stringify(definition), created_by: by, updated_by: by })
    .execute();
  await trx.updateTable('handheld_config').set({ published_version: version, updated_by: by, updated_at: sql`now()` }).where('id', '=', configId).execute();
}

/** The published version the runtime runs for a function: the active configuration's, the one published last when there are several. */
export async function publishedFlow(db: Kysely<DB>, place: Place, fn: HandheldFunction) {
  return db
    .selectFrom('handheld_config as c')
    .innerJoin('handheld_config_version as v', (join) => join.onRef('v.config_id', '=', 'c.id').onRef('v.version', '=', 'c.published_version'))
    .select(['c.id', 'c.code', 'v.version', 'v.definition'])
    .$call((q) => whereInScope(q, 'c', place))
    .where('c.fn', '=', fn)
    .where('c.status', '=', 'active')
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- device sessions

export async function openSessionOfDevice(trx: Transaction<DB>, deviceId: string) {
  return trx.selectFrom('handheld_device_session').select(['id', 'user_id', 'warehouse_id']).where('device_id', '=', deviceId).where('ended_at', 'is', null).forUpdate().executeTakeFirst();
}

export async function endSessions(trx: Transaction<DB>, where: { deviceId?: string; userId?: number; id?: number; warehouseId?: number }, by: string, reason: 'supervisor' | null = null): Promise<number> {
  let query = trx.updateTable('handheld_device_session').set({ ended_at: sql`now()`, ended_reason: reason, updated_by: by, updated_at: sql`now()` }).where('ended_at', 'is', null);
  if (where.warehouseId !== undefined) query = query.where('warehouse_id', '=', where.warehouseId);
  if (where.deviceId !== undefined) query = query.where('device_id', '=', where.deviceId);
  if (where.userId !== undefined) query = query.where('user_id', '=', where.userId);
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertSession(trx: Transaction<DB>, place: Place, userId: number, deviceId: string, flow: string | null, by: string): Promise<number> {
  const row = await trx
    .insertInto('handheld_device_session')
    .values({ project_id: place.projectId, warehouse_id: place.warehouseId, user_id: userId, device_id: deviceId, flow, created_by: by, updated_by: by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function touchSession(trx: Transaction<DB>, userId: number, deviceId: string, flow: string | null, by: string): Promise<number> {
  const result = await trx
    .updateTable('handheld_device_session')
    .set({ last_scan_at: sql`now()`, ...(flow ? { flow } : {}), updated_by: by, updated_at: sql`now()` })
    .where('device_id', '=', deviceId)
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The device's last session of the user, when a supervisor ended it (and the device has not been signed in since). */
export async function endedBySupervisor(db: Kysely<DB>, userId: number, deviceId: string): Promise<boolean> {
  const last = await db
    .selectFrom('handheld_device_session')
    .select(['user_id', 'ended_reason', 'ended_at'])
    .where('device_id', '=', deviceId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return last !== undefined && Number(last.user_id) === userId && last.ended_at !== null && last.ended_reason === 'supervisor';
}

/** An open session of the warehouse by its id (the supervisor's list). */
export async function openSessionInWarehouse(trx: Transaction<DB>, id: number, warehouseId: number): Promise<DeviceSessionRow | null> {
  const row = await openSessions(trx, warehouseId).where('s.id', '=', id).forUpdate('s').executeTakeFirst();
  return row ? toSession(row) : null;
}

/** The open device sessions of a warehouse with their users, as the session rows read them. */
function openSessions(db: Kysely<DB>, warehouseId: number) {
  return db
    .selectFrom('handheld_device_session as s')
    .innerJoin('app_user as u', 'u.id', 's.user_id')
    .select(sessionColumns)
    .where('s.warehouse_id', '=', warehouseId)
    .where('s.ended_at', 'is', null);
}

const sessionColumns = ['s.id', 's.device_id', 'u.login_account', 'u.display_name', 's.flow', 's.signed_in_at', 's.last_scan_at'] as const;
type SessionDb = { id: number; device_id: string; login_account: string; display_name: string | null; flow: string | null; signed_in_at: Date; last_scan_at: Date | null };
const toSession = (r: SessionDb): DeviceSessionRow => ({
  id: Number(r.id),
  deviceId: r.device_id,
  login: r.login_account,
  userName: r.display_name ?? r.login_account,
  flow: r.flow,
  signedInAt: new Date(r.signed_in_at).toISOString(),
  lastScanAt: r.last_scan_at ? new Date(r.last_scan_at).toISOString() : null,
});

/** The devices signed in now in the warehouse (of any project), the last scanned first. */
export async function activeSessions(db: Kysely<DB>, warehouseId: number): Promise<DeviceSessionRow[]> {
  const rows = await openSessions(db, warehouseId).orderBy(sql`coalesce(s.last_scan_at, s.signed_in_at)`, 'desc').execute();
  return rows.map(toSession);
}

export async function sessionOfUser(db: Kysely<DB>, userId: number, warehouseId: number): Promise<DeviceSessionRow | null> {
  const row = await openSessions(db, warehouseId).where('s.user_id', '=', userId).orderBy('s.id', 'desc').executeTakeFirst();
  return row ? toSession(row) : null;
}

// ---------------------------------------------------------------- location logic (read model handheld.locations)

/** The active location of the warehouse holding most of the SKU in the project (`sameSku`), or of a type (`pick`). */
export async function locationHoldingSku(db: Kysely<DB>, place: Place, skuCode: string, type: 'storage' | 'pick' | null): Promise<string | null> {
  let query = db
    .selectFrom('inventory_balance as b')
    .innerJoin('sku as s', 's.id', 'b.sku_id')
    .innerJoin('location as l', 'l.id', 'b.location_id')
    .select('l.code')
    .$call((q) => whereInScope(q, 'b', place))
    .where('s.code', '=', skuCode)
    .where('l.status', '=', 'active')
    .where('b.on_hand_qty', '>', '0')
    .where('l.location_type', 'in', type ? [type] : ['storage', 'pick']);
  query = query.groupBy('l.code').orderBy(sql`sum(b.on_hand_qty)`, 'desc').orderBy('l.code');
  const row = await query.executeTakeFirst();
  return row?.code ?? null;
}

/** The first active storage location (by code) of the warehouse holding nothing. */
export async function nextEmptyLocation(db: Kysely<DB>, warehouseId: number): Promise<string | null> {
  const row = await db
    .selectFrom('location as l')
    .select('l.code')
    .where('l.warehouse_id', '=', warehouseId)
    .where('l.status', '=', 'active')
    .where('l.location_type', '=', 'storage')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'l.id').where('b.on_hand_qty', '>', '0'))))
    .orderBy('l.code')
    .executeTakeFirst();
  return row?.code ?? null;
}

/** The SKU's group in the project (its item type for the location logic), or null. */
export async function skuGroupOf(db: Kysely<DB>, place: Place, skuCode: string): Promise<string | null> {
  const row = await db.selectFrom('sku').select('sku_group').where('project_id', '=', place.projectId).where('code', '=', skuCode).executeTakeFirst();
  return row?.sku_group?.trim() || null;
}

/** An active storage or pick location of the warehouse whose zone is the item type: an empty one first, then by code. */
export async function locationOfZone(db: Kysely<DB>, warehouseId: number, zone: string): Promise<string | null> {
  const row = await db
    .selectFrom('location as l')
    .select('l.code')
    .where('l.warehouse_id', '=', warehouseId)
    .where('l.status', '=', 'active')
    .where('l.location_type', 'in', ['storage', 'pick'])
    .where('l.zone', '=', zone)
    .orderBy(sql`exists (select 1 from inventory_balance b where b.location_id = l.id and b.on_hand_qty > 0)`)
    .orderBy('l.code')
    .executeTakeFirst();
  return row?.code ?? null;
}

/** The code of an active location of the warehouse, as the location master spells it, or null. */
export async function activeLocationCode(db: Kysely<DB>, warehouseId: number, code: string): Promise<string | null> {
  const row = await db.selectFrom('location').select('code').where('warehouse_id', '=', warehouseId).where('status', '=', 'active').where(sql`lower(code)`, '=', code.toLowerCase()).executeTakeFirst();
  return row?.code ?? null;
}

/** The codes of the session's project and warehouse (they name the location parameters). */
export async function placeCodes(db: Kysely<DB>, place: Place): Promise<{ project: string | null; warehouse: string | null }> {
  const [project, warehouse] = await Promise.all([
    db.selectFrom('project').select('code').where('id', '=', place.projectId).executeTakeFirst(),
    db.selectFrom('warehouse').select('code').where('id', '=', place.warehouseId).executeTakeFirst(),
  ]);
  return { project: project?.code ?? null, warehouse: warehouse?.code ?? null };
}
