/**
 * The public entry of the EDI area: what other areas may use of it. Another area imports this file
 * and nothing else of the folder (lint: local/import-boundaries). Packing or shipping calls
 * `queueShipNotice` in its own transaction with the notice of an order.
 */
export type { ShipNotice, ShipNoticeCarton, ShipNoticeLine, ShipNoticeAddress, PartyId } from './ship-notice.js';
export { queueShipNotice, saveEdiPartner, type EdiScope, type EdiPartnerSetting } from './edi.service.js';
export type { EdiSendOn, EdiTrigger, EdiStandard } from './edi.tables.js';
