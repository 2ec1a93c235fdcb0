/** Public entry of the engine's server side: definition -> SQL, field rules, behaviours. */
export * from './engine-error.js';
export * from './engine-db.js';
export * from './engine-session.js';
export { parseNamedSql, type ParsedSql } from './parse-named-sql.js';
export { bindNamedSql } from './bind-named-sql.js';
export { coerceFieldValue, type BoundValue } from './coerce-field-value.js';
export { checkFieldValue } from './check-field-value.js';
export { checkBehaviourInputs } from './check-behaviour-inputs.js';
export { compileConditions } from './compile-conditions.js';
export { compileSort } from './compile-sort.js';
export { readTableColumns, checkPageAgainstCatalog, checkPageAgainstColumns, catalogTablesOf, checkPageAgainstRoles, type TableColumns } from './catalog.js';
export { preparePage, columnRef, rowFilterCondition, type PreparedPage, type RowFilter } from './prepared-page.js';
export {
  CONFIGURATOR_SQL_LIMITS,
  CONFIGURATOR_ROLES,
  inReadOnlyTransaction,
  inConfiguratorTransaction,
  enterConfiguratorRole,
  requireAllowedSql,
  setLocalStatementTimeout,
  configuratorSqlFailure,
} from './configurator-sql.js';
export { checkConfiguratorSql, type ConfiguratorSqlMode, type ConfiguratorSqlVerdict } from './check-configurator-sql.js';
export { compileRowQuery, findListedRow, inPageReadTransaction, selectPage, PAGE_COUNT_LIMITS, iterateRows, findRowsByKeys, parseRowKey, type RowQuery } from './page-rows.js';
export { normalizeRow, type EngineRow } from './normalize-row.js';
export { prepareRecord, type PreparedRecord } from './prepare-record.js';
export { checkRecordInDatabase } from './check-record-in-database.js';
export { checkForeignValues, type ForeignCheckOptions } from './check-foreign-values.js';
export { foreignRowConditions, type ForeignRowFilters } from './foreign-rows.js';
export { runValidationSql } from './run-validation-sql.js';
export { insertRow, updateRow, deleteRow } from './write-rows.js';
export { databaseWriteError } from './database-error.js';
export { dropdownOptions, dropdownFill, type DropdownPorts, type DropdownAnswer } from './dropdown-options.js';
export { foreignChoiceText, foreignFilterConditions, type ForeignOptions } from './foreign-options.js';
export { parseCsv } from './parse-csv.js';
export { mapImportRows, type ImportRecord } from './map-import-rows.js';
export { readSheetRows } from './read-sheet-rows.js';
