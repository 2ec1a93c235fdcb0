import type { Kysely, Transaction } from 'kysely';
import { whereInScope } from '../../db/scoped-rows.js';
import { sql } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { LaundryCustomerRow, LaundryDeviceRow, LaundryIssuedDevice } from '../../../common/laundry-api.js';
import type { DB } from '../../db/schema.js';
import { hashDeviceKey, newCustomerCode, newDeviceKey } from './laundry.device-key.js';

/** The administration's scope: the session's project and warehouse, and who is signed in. */
export interface AdminScope {
  projectId: number;
  warehouseId: number;
  operator: string;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function deviceRow(row: {
  id: number;
  name: string;
  key_hint: string;
  created_at: Date;
  created_by: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  last_used_at: Date | null;
}): LaundryDeviceRow {
  return {
    id: Number(row.id),
    name: row.name,
    keyHint: row.key_hint,
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
    revokedAt: iso(row.revoked_at),
    revokedBy: row.revoked_by,
    lastUsedAt: iso(row.last_used_at),
  };
}

const DEVICE_COLUMNS = ['id', 'name', 'key_hint', 'created_at', 'created_by', 'revoked_at', 'revoked_by', 'last_used_at'] as const;

/** The devices of the warehouse, newest first (their keys are never stored, so never listed). */
export async function listDevices(db: Kysely<DB>, scope: AdminScope): Promise<LaundryDeviceRow[]> {
  const rows = await db
    .selectFrom('laundry_device')
    .select(DEVICE_COLUMNS)
    .$call((q) => whereInScope(q, 'laundry_device', scope))
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows.map(deviceRow);
}

/** Issues a device of the session's project and warehouse: the key is answered this once and stored only hashed. */
export async function issueDevice(trx: Transaction<DB>, scope: AdminScope, name: string): Promise<LaundryIssuedDevice> {
  const key = newDeviceKey();
  const row = await trx
    .insertInto('laundry_device')
    .values({
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      name: name.trim(),
      key_hash: hashDeviceKey(key),
      key_hint: key.slice(0, 8),
      created_by: scope.operator,
      updated_by: scope.operator,
    })
    .returning(DEVICE_COLUMNS)
    .executeTakeFirstOrThrow();
  return { device: deviceRow(row), key };
}

/** Revokes a device of the warehouse: its key is refused from the next call on. Revoking twice changes nothing. */
export async function revokeDevice(trx: Transaction<DB>, scope: AdminScope, deviceId: number): Promise<LaundryDeviceRow> {
  const found = await trx
    .selectFrom('laundry_device')
    .select('id')
    .where('id', '=', deviceId)
    .$call((q) => whereInScope(q, 'laundry_device', scope))
    .forUpdate()
    .executeTakeFirst();
  if (!found) throw new AppError('NO_RECORD');
  const row = await trx
    .updateTable('laundry_device')
    .set({
      revoked_at: sql<Date>`coalesce(revoked_at, now())`,
      revoked_by: sql<string>`coalesce(revoked_by, ${scope.operator})`,
      updated_at: sql<Date>`now()`,
      updated_by: scope.operator,
    })
    .where('id', '=', deviceId)
    .returning(DEVICE_COLUMNS)
    .executeTakeFirstOrThrow();
  return deviceRow(row);
}

function customerRow(row: { id: number; code: string; name: string; phone: string | null; active: boolean; created_at: Date }): LaundryCustomerRow {
  return { id: Number(row.id), code: row.code, name: row.name, phone: row.phone, active: row.active, createdAt: new Date(row.created_at).toISOString() };
}

const CUSTOMER_COLUMNS = ['id', 'code', 'name', 'phone', 'active', 'created_at'] as const;

export async function listCustomers(db: Kysely<DB>, scope: AdminScope): Promise<LaundryCustomerRow[]> {
  const rows = await db
    .selectFrom('laundry_customer')
    .select(CUSTOMER_COLUMNS)
    .$call((q) => whereInScope(q, 'laundry_customer', scope))
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
  return rows.map(customerRow);
}

/** Issues a customer of the warehouse with a new code (printed on their card). */
export async function issueCustomer(trx: Transaction<DB>, scope: AdminScope, input: { name: string; phone?: string | null }): Promise<LaundryCustomerRow> {
  const row = await trx
    .insertInto('laundry_customer')
    .values({
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      code: newCustomerCode(),
      name: input.name.trim(),
      phone: input.phone?.trim() || null,
      created_by: scope.operator,
      updated_by: scope.operator,
    })
    .returning(CUSTOMER_COLUMNS)
    .executeTakeFirstOrThrow();
  return customerRow(row);
}

/** Withdraws a customer's code (or gives it back): a withdrawn code is refused by every public screen. */
export async function setCustomerActive(trx: Transaction<DB>, scope: AdminScope, customerId: number, active: boolean): Promise<LaundryCustomerRow> {
  const row = await trx
    .updateTable('laundry_customer')
    .set({ active, updated_at: sql<Date>`now()`, updated_by: scope.operator })
    .where('id', '=', customerId)
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .returning(CUSTOMER_COLUMNS)
    .executeTakeFirst();
  if (!row) throw new AppError('NO_RECORD');
  return customerRow(row);
}
