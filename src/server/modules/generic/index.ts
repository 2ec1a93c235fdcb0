/**
 * The public entry of the generic area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { createExportSheet, type ExportSheet } from './export-workbook.js';
export { engine, engineSession, openPage, requestContext, requirePageRight, rowByKey } from './generic.context.js';
export type { GenericContext } from './generic.context.js';
export { EXPORT_MAX_ROWS, planExport, selectRows } from './generic.read.js';
export type { ExportPlan } from './generic.read.js';
export { importRecordsToPage } from './generic.write.js';
