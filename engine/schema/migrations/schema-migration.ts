/** One numbered upgrade of page-definition documents. */
export interface SchemaMigration {
  /** The schemaVersion a document has after `up`. */
  version: number;
  description: string;
  /** Upgrades a document of `version - 1`; works on a copy it may change and returns it. */
  up(document: Record<string, unknown>): Record<string, unknown>;
}
