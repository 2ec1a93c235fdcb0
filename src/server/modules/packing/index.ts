/**
 * The public entry of the packing area: what other areas may use of it. Nothing yet; another area
 * imports this file and nothing else of the folder (lint: local/import-boundaries).
 */
export type { CartonStatus } from './packing.tables.js';
