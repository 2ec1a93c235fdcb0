/**
 * The public entry of the packing area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { cartonLabelOf } from './packing.service.js';
export type { CartonStatus, PalletStatus } from './packing.tables.js';
export { cartonForLoading, cartonsByIdForLoading, cartonsForLoadingByCodes, cartonsOfOrdersForLoading, contentsOfCartons, palletForLoading } from './load-lookup.js';
export type { CartonContent, LoadableCarton } from './load-lookup.js';
export { packListOf, packListPdf, shippingDocument, type PackList, type PackListLine } from './pack-list.js';
