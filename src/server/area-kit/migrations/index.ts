import type { Migration } from 'kysely';
import * as m0245 from './0245_area_installation.js';
import * as m0288 from './0288_area_grant.js';

/** The area kit's own tables. */
export const kitMigrations: Record<string, Migration> = { '0245_area_installation': m0245, '0288_area_grant': m0288 };
