/**
 * The public entry of the outbox area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { createMessageOutbox } from './outbox.service.js';
export type { MessageOutbox } from './outbox.service.js';
