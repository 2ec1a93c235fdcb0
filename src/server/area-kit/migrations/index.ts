import type { Migration } from 'kysely';
import * as m0245 from './0245_area_installation.js';

/** The area kit's own tables. */
export const kitMigrations: Record<string, Migration> = { '0245_area_installation': m0245 };
