/**
 * The public entry of the download area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { createBackgroundFile, fileSink, produceBackgroundFile } from './download.background.js';
export type { FileProducer, NewBackgroundFile, ProgressReport } from './download.background.js';
export { inProcessRunner } from './download.service.js';
