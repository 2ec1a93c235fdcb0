/**
 * The public entry of the report area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries). A report runs only through
 * these, in the configurator SQL sandbox, in the scope of the session user it is given.
 */
export { listRunnable, runPage, specToRun, REPORT_PAGE_MAX } from './report.service.js';
export { reportDatabase, withReportDatabase } from './report.database.js';
