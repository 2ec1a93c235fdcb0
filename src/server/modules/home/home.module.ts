import { defineModule } from '../area.js';
import { homeRoutes } from './home.routes.js';
import * as m0030 from './migrations/0030_page_visit.js';
import './home.tables.js';

/** The home page: recent pages and the start-up redirect (spec section 2, /home). */
export const homeModule = defineModule({ name: 'home', migrations: { '0030_page_visit': m0030 }, routes: homeRoutes });
