/**
 * The public entry of the inventory area: what other areas may use of it, the inventory service's
 * interface (`InventoryService`) and its types. Another area imports this file and nothing else of
 * the folder (lint: local/import-boundaries); it never reads a repository function or writes a
 * table of the area.
 */
export {
  applyStockChanges,
  sendStockChanges,
  availableOf,
  availableStock,
  balanceById,
  holdStock,
  inventoryService,
  lockAvailableStock,
  lotFor,
  lotsFor,
  pickStock,
  unpickStock,
} from './inventory.service.js';
export { billableLedgerRows, storageSnapshotRows, type BillableLedgerRow, type StorageSnapshotRow } from './billing-read.repository.js';
export { countHeldStock } from './count.service.js';
export { warehouseRightHolders } from './inventory.notices.js';
export type {
  AppliedChange,
  AvailableStock,
  BalanceKey,
  BalanceQuantities,
  BalanceRow,
  ChangeDetails,
  InventoryService,
  LotAttributes,
  LotRow,
  StockChange,
  StockReference,
  StockScope,
  StockWanted,
  TransType,
} from './inventory.service.js';
export type { LotAttributeColumns } from './inventory.tables.js';
