/**
 * The public entry of the job area: what other areas may use of it. Another area imports this file
 * and nothing else of the folder (lint: local/import-boundaries).
 */
export { checkCronExpression, CRON_MAX_LENGTH, type CronCheck } from './cron.js';
