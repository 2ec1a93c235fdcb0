import type { Generated } from 'kysely';

/** The area kit's own table; its migration (migrations/0245_area_installation.ts) creates it. */
declare module '../db/schema.js' {
  interface DB {
    area_installation: AreaInstallationTable;
  }
}

/** An area this database has installed: its default grants were given then. */
export interface AreaInstallationTable {
  area: string;
  installed_at: Generated<Date>;
}
