import { defineModule } from '../area.js';
import { countBehaviours, documentBehaviours } from './inventory.behaviours.js';
import { inventoryRoutes } from './inventory.routes.js';
import { countLineWriter, countPlanWriter, documentLineWriter, documentWriter } from './inventory.writers.js';
import * as m0100 from './migrations/0100_inventory.js';
import * as m0101 from './migrations/0101_inventory_documents.js';
import * as m0102 from './migrations/0102_inventory_views.js';
import * as m0103 from './migrations/0103_inventory_menu.js';
import * as m0105 from './migrations/0105_storage_snapshot.js';
import * as m0217 from './migrations/0217_inventory_views_invoker.js';
import * as m0240 from './migrations/0240_one_transaction_log.js';
import * as m0255 from './migrations/0255_count_line_hold.js';
import * as m0285 from './migrations/0285_sku_search_menu.js';
import * as m0364 from './migrations/0364_storage_snapshot_measures.js';
import { inventoryJobs } from './inventory.jobs.js';
import { scheduledReportJob } from './report.job.js';
import { inventoryReportRoutes } from './report.routes.js';
import './inventory.tables.js';
import './storage.tables.js';

/**
 * Inventory: lots, the balance and the append-only
 * ledger, changed only through `inventory.service.ts`, which inbound, outbound and the inventory
 * operations call inside their transactions; the operation documents (adjustment, move, transfer,
 * hold), the cycle count, and the queries over balance and ledger.
 */
const INVENTORY = { definitionOf: 'inventory' } as const;

export const inventoryModule = defineModule({
  name: 'inventory',
  migrations: { '0100_inventory': m0100, '0101_inventory_documents': m0101, '0102_inventory_views': m0102, '0103_inventory_menu': m0103, '0105_storage_snapshot': m0105, '0217_inventory_views_invoker': m0217, '0240_one_transaction_log': m0240, '0255_count_line_hold': m0255, '0285_sku_search_menu': m0285, '0364_storage_snapshot_measures': m0364 },
  async routes(app, options) {
    await inventoryRoutes(app, options);
    await inventoryReportRoutes(app, options);
  },
  behaviours: [...documentBehaviours, ...countBehaviours],
  writers: [documentWriter, documentLineWriter, countLineWriter, countPlanWriter],
  rights: [
    { right: 'inventory.adjust:approve', labelCode: 'inv.verb.approveAdjust' },
    { right: 'inventory.adjust:confirm', labelCode: 'inv.verb.confirmAdjust' },
    { right: 'inventory.move:confirm', labelCode: 'inv.verb.confirmMove' },
    { right: 'inventory.move:approve', labelCode: 'inv.verb.approveMove' },
    { right: 'inventory.transfer:confirm', labelCode: 'inv.verb.confirmTransfer' },
    { right: 'inventory.transfer:approve', labelCode: 'inv.verb.approveTransfer' },
    { right: 'inventory.hold:confirm', labelCode: 'inv.verb.confirmHold' },
    { right: 'inventory.hold:approve', labelCode: 'inv.verb.approveHold' },
    { right: 'inventory.hold:release', labelCode: 'inv.verb.releaseHold' },
    { right: 'inventory.count:create', labelCode: 'inv.verb.createCount' },
    { right: 'inventory.count:approve', labelCode: 'inv.verb.approveCount' },
  ],
  jobs: [...inventoryJobs, scheduledReportJob],
  serviceOnlyTables: ['lot', 'inventory_balance', 'inventory_transaction', 'storage_snapshot', 'expiry_alert_sent'],
  // The reason codes of a document type: the reason dropdown of the adjust, move, transfer, hold and count pages.
  choiceRoutes: ['GET /inventory/reasonCode'],
  pages: [
    { route: 'noneEditable', group: 'genericGroup', opens: INVENTORY },
    { route: 'skuHeader', group: 'masterData', opens: INVENTORY, after: 'sku' },
    { route: 'balance', group: 'inventory', opens: INVENTORY },
    { route: 'stdBalanceReport', group: 'inventory', opens: 'screen' },
    { route: 'transaction', group: 'inventory', opens: 'screen' },
    { route: 'enquiryLot', group: 'inventory', opens: INVENTORY },
    { route: 'enquiryUser', group: 'inventory', opens: INVENTORY },
    { route: 'enquirySku', group: 'inventory', opens: INVENTORY },
    { route: 'enquiryLoc', group: 'inventory', opens: INVENTORY },
    { route: 'lnvnMove', group: 'inventory', opens: INVENTORY },
    { route: 'invAdjust', group: 'inventory', opens: INVENTORY },
    { route: 'invTransfer', group: 'inventory', opens: INVENTORY },
    { route: 'invHold', group: 'inventory', opens: INVENTORY },
    { route: 'cycleCount', group: 'inventory', opens: INVENTORY },
    { route: 'cycleCountMaster', group: 'inventory', opens: INVENTORY },
    { route: 'skuSearch', group: 'inventory', opens: 'screen' },
  ],
  // Cycle-count tickets still to count or to approve.
  homeItems: [{ kind: 'count', tables: ['count_ticket'], terminal: ['approved', 'closed', 'cancelled'], position: 40, statusTexts: 'inv.status', listRoute: 'cycleCount' }],
  readModels: [
    {
      name: 'inventory.documentLookups',
      files: ['count.repository.ts', 'document.repository.ts', 'handheld.repository.ts', 'inventory.repository.ts', 'lookup.repository.ts'],
      reads: ['inv_code', 'location', 'owner', 'project_warehouse', 'sku', 'sku_upc'],
      purpose: 'codes, names and checks of the SKUs, owners, locations and reason codes that stock documents, counts and handheld scans name',
    },
    {
      name: 'inventory.homeCharts',
      files: ['activity.repository.ts'],
      reads: ['owner'],
      purpose: "the owner codes of the home page's chart of stock by owner",
    },
    {
      name: 'inventory.barcodeSearch',
      files: ['barcode.repository.ts'],
      reads: ['location', 'owner'],
      purpose: 'the location codes of the stock and the owner codes of the SKUs a scanned or typed code names',
    },
    {
      name: 'inventory.stockQueries',
      files: ['query.repository.ts'],
      reads: ['location', 'owner', 'sku', 'sys_param', 'warehouse'],
      purpose: 'the balance, enquiry and transaction-log queries shown with SKU, owner, location and warehouse codes',
    },
    {
      name: 'inventory.storageSnapshot',
      files: ['storage.repository.ts'],
      reads: ['location', 'sku'],
      purpose: 'the location type, pallets, cubic metres and kilograms of the stock a daily storage snapshot records',
    },
    {
      name: 'inventory.reportRecipients',
      files: ['report.repository.ts', 'storage.repository.ts'],
      reads: ['app_user', 'project', 'project_warehouse', 'user_project', 'user_warehouse', 'warehouse'],
      purpose: 'the warehouses and users a stock report, snapshot or expiry alert is made for',
    },
  ],
});
