import type { Generated } from 'kysely';

/** The area kit's own tables; its migrations (migrations/0245_area_installation.ts, 0288_area_grant.ts) create them. */
declare module '../db/schema.js' {
  interface DB {
    area_installation: AreaInstallationTable;
    area_grant: AreaGrantTable;
  }
}

/** An area this database has installed: its default grants were given then. */
export interface AreaInstallationTable {
  area: string;
  installed_at: Generated<Date>;
}

/** A default grant of an area given to a seeded role (by the role's name, lower case). */
export interface AreaGrantTable {
  area: string;
  role_name: string;
  right_code: string;
  given_at: Generated<Date>;
}
