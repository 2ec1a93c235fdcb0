/**
 * The public entry of the carrier area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { httpCarrier, type CarrierAdapter, type CarrierEndpoint, type LabelFormat } from './carrier-adapter.js';
export type { CarrierShipmentStatus } from './carrier.tables.js';
