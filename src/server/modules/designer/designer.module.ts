import { defineModule } from '../area.js';
import { designerRoutes } from './designer.routes.js';
import * as m0040 from './migrations/0040_designer.js';
import './designer.tables.js';

/** The visual designer's API: drafts, publish, versions, copy, import and export (spec section 7). */
export const designerModule = defineModule({ name: 'designer', migrations: { '0040_designer': m0040 }, routes: designerRoutes });
