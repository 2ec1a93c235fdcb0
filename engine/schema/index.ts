/** Public entry of the page-definition schema. */
export * from './page-definition.schema.js';
export * from './query-operators.js';
export * from './validation-problem.js';
export * from './field-flags.js';
export { validatePageDefinition, loadPageDefinition } from './validate-page-definition.js';
export { upgradePageDefinition, type UpgradeResult } from './upgrade-page-definition.js';
export { checkPageSemantics } from './check-page-semantics.js';
export { SCHEMA_MIGRATIONS, type SchemaMigration } from './migrations/index.js';
