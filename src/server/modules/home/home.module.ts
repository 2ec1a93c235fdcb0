import { defineModule } from '../area.js';
import { homeRoutes } from './home.routes.js';
import * as m0030 from './migrations/0030_page_visit.js';
import './home.tables.js';

/** The home page: open work, recent pages and the start-up redirect; the shell's route table. */
export const homeModule = defineModule({
  name: 'home',
  migrations: { '0030_page_visit': m0030 },
  routes: homeRoutes,
  // The warehouse's task list, counted here until an area brings its table.
  homeItems: [{ kind: 'task', tables: ['wms_task', 'task'], terminal: ['done', 'completed', 'cancelled', 'deleted', 'closed'], position: 30 }],
});
