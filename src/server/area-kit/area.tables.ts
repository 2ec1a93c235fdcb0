import type { Generated } from 'kysely';

/** The area kit's own tables; their migrations (migrations/) create them. */
declare module '../db/schema.js' {
  interface DB {
    area_installation: AreaInstallationTable;
    area_grant: AreaGrantTable;
    idempotency_key: IdempotencyKeyTable;
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

/** A user's idempotency key of a scan call (idempotency.ts): the request it was claimed for and its answer. */
export interface IdempotencyKeyTable {
  user_id: number;
  key: string;
  /** SHA-256 of method, path and body of the request that claimed the key. */
  request_hash: string;
  status: Generated<number>;
  response: unknown;
  created_at: Generated<Date>;
}
