import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';

/**
 * Every migration, in order. Names sort in the order they run; a new migration gets the next
 * number and is added here (a static list keeps the bundle free of file-system scanning).
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
};
