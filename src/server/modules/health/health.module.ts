import { defineModule } from '../area.js';
import { healthRoutes } from './health.routes.js';

/** `GET /api/health` for load balancers and the start-up check. */
export const healthModule = defineModule({ name: 'health', routes: healthRoutes });
