/**
 * The public entry of the masterdata area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { nextDocumentNumber } from './id-generator.service.js';
export { ensureVirtualLocation } from './location.service.js';
export { warehouseParam } from './system-param.js';
export { activeCodes, isActiveCode, type DescribedCode } from './code-master.js';
export { DEMO } from './masterdata.demo.js';
export type { LocationType } from './masterdata.tables.js';
export { findSkuByCode, gtinForms, readBarcode, skuHasBarcode, skuOfBarcodeRow, skusOfBarcode, skusOfBarcodeSql, type ReadBarcode, type SkuCodeOptions, type SkuOfBarcode, type SkuOfBarcodeRow, type SkuOfCode } from './sku-lookup.js';
