/**
 * The public entry of the outbound area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { cancelPackingStatus, findPackingOrder, pickedSourcesOfLine, setPackingStatus, shipToOfOrder, unpickOrder } from './pack-order.service.js';
export type { PackingOrder, PackingOrderLine, PickedSource } from './pack-order.service.js';
export { SO_STATUSES, type SoStatus } from './so-status.js';
export { assertShipmentComplete, BATTERY_VALUES, SHIPMENT_REQUIRED_FIELDS } from './so-documents.service.js';
