/**
 * The public entry of the outbound area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { billableOrders, type BillableOrder } from './billing-read.repository.js';
export { cancelPackingStatus, findPackingOrder, packingOrderStatement, pickedSourcesOfLines, pickedSourcesOfRows, setPackingStatus, shipToOfOrder, unpickOrder } from './pack-order.service.js';
export { pickedPlacesOfOrderSkuSql, type PickedPlaceRow } from './pack-order.repository.js';
export type { PackingOrder, PackingOrderLine, PickedSource } from './pack-order.service.js';
export { SO_STATUSES, type SoStatus } from './so-status.js';
export { orderNumbers, ordersOfWave, setLoadingStatus } from './load-order.service.js';
export type { LoadingStatus } from './load-order.service.js';
export { assertShipmentComplete, BATTERY_VALUES, SHIPMENT_REQUIRED_FIELDS } from './so-documents.service.js';
export { markOrdersBilled } from './billed-orders.service.js';
export { createOrder, type Actor as OrderActor, type OrderInput } from './so-documents.service.js';
export { checkAddress } from './address.js';
export { endOrders } from './outbound.service.js';
export { addOrdersToShipment } from './so-documents.service.js';
