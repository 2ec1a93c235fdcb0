import type { Migration } from 'kysely';
import * as m0245 from './0245_area_installation.js';
import * as m0288 from './0288_area_grant.js';
import * as m0380 from './0380_idempotency_key.js';

/** The area kit's own tables. */
export const kitMigrations: Record<string, Migration> = { '0245_area_installation': m0245, '0288_area_grant': m0288, '0380_idempotency_key': m0380 };
