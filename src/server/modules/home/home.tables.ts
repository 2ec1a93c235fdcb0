import type { Generated } from 'kysely';
import type { Audit } from '../../db/schema.js';

/** The tables of the home area; its migrations create them. */
declare module '../../db/schema.js' {
  interface DB {
    page_visit: PageVisitTable;
  }
}

/** How often a user opened a page (migration 0030): the home page's most used pages. */
export interface PageVisitTable extends Audit {
  user_id: number;
  route: string;
  visits: Generated<number>;
  last_visited_at: Generated<Date>;
}
