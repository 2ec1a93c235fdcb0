import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { JobContext, JobDefinition } from '../area.js';
import { notifyWarehouse } from './inventory.notices.js';
import { endOfDay } from './query.repository.js';
import { validDay } from './query.service.js';
import { dayInZone, findExpiringLots, findWarehouses, markAlertsSent, replaceSnapshot, type WarehouseRow } from './storage.repository.js';

/*
 * The inventory area's built-in job handlers (the /job screen's classes):
 *
 * inventory.storageSnapshot - the nightly storage snapshot billing charges storage from.
 *   date       `yesterday` (default: the day that has just ended in each warehouse's time zone),
 *              `today` (the stock now), or a past day YYYY-MM-DD (computed back from the ledger).
 *   warehouse  a warehouse code; default every warehouse.
 *   Re-running a day replaces that day's rows of the warehouse.
 *
 * inventory.expiryAlert - lots with stock on hand expiring within a number of days (expired ones
 *   included): one notification per warehouse to its users holding the balance view right.
 *   days       1 to 3650, default 30.
 *   warehouse  a warehouse code; default every warehouse.
 *   A lot is announced once a day per warehouse; a run with nothing new raises nothing.
 *
 * Both work on whole warehouses across every project they serve: they are system classes, whose
 * jobs belong to no project and are made and seen by administrators only.
 */

/** The right whose holders in a warehouse hear of expiring stock there. */
const EXPIRY_RIGHT = 'inventory.balance:view';

function warehouseParam(params: Record<string, string>): string | undefined {
  const code = params.warehouse?.trim();
  return code ? code : undefined;
}

async function warehousesOf(db: Kysely<DB>, params: Record<string, string>): Promise<WarehouseRow[]> {
  const code = warehouseParam(params);
  const warehouses = await findWarehouses(db, code);
  if (code !== undefined && warehouses.length === 0) throw new Error(`no warehouse has the code "${code}"`);
  return warehouses;
}

/** The day a snapshot is taken of, in the warehouse's time zone. */
async function snapshotDay(context: JobContext, warehouse: WarehouseRow): Promise<string> {
  const value = (context.params.date ?? '').trim().toLowerCase();
  const at = context.run.scheduledFor;
  if (value === '' || value === 'yesterday') return dayInZone(context.db, at, warehouse.timeZone, -1);
  if (value === 'today') return dayInZone(context.db, at, warehouse.timeZone, 0);
  if (!validDay(value)) throw new Error(`date must be yesterday, today or a day written YYYY-MM-DD, got "${context.params.date}"`);
  if (value > (await dayInZone(context.db, new Date(), warehouse.timeZone, 0))) throw new Error(`date ${value} lies in the future`);
  return value;
}

export const storageSnapshotJob: JobDefinition = {
  name: 'inventory.storageSnapshot',
  scope: 'system',
  async run(context) {
    const { db, log } = context;
    const by = `job:${context.job.name}`.slice(0, 100);
    for (const warehouse of await warehousesOf(db, context.params)) {
      const day = await snapshotDay(context, warehouse);
      const asOf = await endOfDay(db, day, warehouse.timeZone);
      const written = await inTransaction(db, (trx) => replaceSnapshot(trx, { day, warehouseId: warehouse.id, asOf, by }));
      log(`warehouse ${warehouse.code} day ${day}: ${written.rows} owner x SKU rows, on hand ${written.qty}`);
    }
  },
};

function expiryDays(params: Record<string, string>): number {
  const raw = params.days?.trim();
  const days = raw === undefined || raw === '' ? 30 : Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new Error(`days must be a whole number from 1 to 3650, got "${params.days}"`);
  return days;
}

export const expiryAlertJob: JobDefinition = {
  name: 'inventory.expiryAlert',
  scope: 'system',
  async run(context) {
    const { db, log, events } = context;
    const days = expiryDays(context.params);
    for (const warehouse of await warehousesOf(db, context.params)) {
      const today = await dayInZone(db, context.run.scheduledFor, warehouse.timeZone, 0);
      const until = await dayInZone(db, context.run.scheduledFor, warehouse.timeZone, days);
      const lots = await findExpiringLots(db, warehouse.id, today, until);
      const outcome = await inTransaction(db, async (trx) => {
        const fresh = await markAlertsSent(trx, today, warehouse.id, lots.map((l) => l.lotId));
        const announced = lots.filter((l) => fresh.has(l.lotId));
        if (announced.length === 0) return { announced: 0, recipients: 0 };
        const projects = [...new Set(announced.map((l) => l.projectId))];
        const recipients = await notifyWarehouse(trx, events, {
          warehouseId: warehouse.id,
          projectId: projects.length === 1 ? projects[0] : null,
          right: EXPIRY_RIGHT,
          category: 'inventory',
          title: { key: 'inv.notice.expiring' },
          body: { key: 'inv.notice.expiringBody' },
          params: {
            warehouse: warehouse.code,
            days,
            lots: announced.length,
            expiring: announced.filter((l) => !l.expired).length,
            expired: announced.filter((l) => l.expired).length,
          },
          link: 'enquiryLot',
          by: `job:${context.job.name}`.slice(0, 100),
        });
        return { announced: announced.length, recipients: recipients.length };
      });
      log(`warehouse ${warehouse.code}: ${lots.length} lots expiring by ${until}, ${outcome.announced} announced to ${outcome.recipients} users`);
    }
  },
};

export const inventoryJobs: JobDefinition[] = [storageSnapshotJob, expiryAlertJob];
