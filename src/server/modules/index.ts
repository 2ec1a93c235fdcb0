import type { AreaModule } from './area.js';
import { billingModule } from './billing/billing.module.js';
import { attachmentModule } from './attachment/attachment.module.js';
import { designerModule } from './designer/designer.module.js';
import { ediModule } from './edi/edi.module.js';
import { downloadModule } from './download/download.module.js';
import { genericModule } from './generic/generic.module.js';
import { healthModule } from './health/health.module.js';
import { homeModule } from './home/home.module.js';
import { identityModule } from './identity/identity.module.js';
import { importsModule } from './imports/imports.module.js';
import { inboundModule } from './inbound/inbound.module.js';
import { inventoryModule } from './inventory/inventory.module.js';
import { jobModule } from './job/job.module.js';
import { loadingModule } from './loading/loading.module.js';
import { masterdataModule } from './masterdata/masterdata.module.js';
import { notificationModule } from './notification/notification.module.js';
import { outboxModule } from './outbox/outbox.module.js';
import { supportModule } from './support/support.module.js';
import { outboundModule } from './outbound/outbound.module.js';
import { packingModule } from './packing/packing.module.js';
import { printingModule } from './printing/printing.module.js';
import { carrierModule } from './carrier/carrier.module.js';
import { wizardModule } from './wizard/wizard.module.js';
import { transportModule } from './transport/transport.module.js';
import { reportModule } from './report/report.module.js';
import { cfsModule } from './cfs/cfs.module.js';
import { handheldModule } from './handheld/handheld.module.js';
import { templateModule } from './template/template.module.js';
import { laundryModule } from './laundry/laundry.module.js';
import { resplanModule } from './resplan/resplan.module.js';
import { autoPrintModule } from './autoprint/autoprint.module.js';

/**
 * THE list of business areas (src/server/modules/README.md). Adding an area is one line here plus
 * files in its own folder; routes register in this order.
 */
export const MODULES: readonly AreaModule[] = [
  healthModule,
  homeModule,
  outboxModule,
  identityModule,
  designerModule,
  genericModule,
  masterdataModule,
  attachmentModule,
  downloadModule,
  inventoryModule,
  importsModule,
  notificationModule,
  jobModule,
  inboundModule,
  supportModule,
  outboundModule,
  packingModule,
  loadingModule,
  printingModule,
  ediModule,
  billingModule,
  carrierModule,
  wizardModule,
  transportModule,
  reportModule,
  cfsModule,
  handheldModule,
  templateModule,
  laundryModule,
  resplanModule,
  autoPrintModule,
];
