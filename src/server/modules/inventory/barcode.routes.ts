import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { lookupBarcode } from './barcode.service.js';
import { route } from './inventory.schemas.js';

/** The SKU and UPC search screen's call: the SKU(s) a scanned or typed code names, with their stock here. */
export const barcodeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  app.get(
    '/inventory/barcode',
    route({ right: 'skuSearch:view', scope: 'warehouse' }, 'The SKU(s) a SKU code, UPC, case GTIN or GS1-128 label names, with their stock by location, lot and LPN in this warehouse', {
      querystring: Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    }),
    async (request) => {
      const user = requireUser(request);
      return lookupBarcode(db, { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId }, request.query.code);
    },
  );
};
