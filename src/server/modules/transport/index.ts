/**
 * The public entry of the transport area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export type { DoStatus, RouteStatus } from './transport.tables.js';
