import type { FastifyPluginAsync } from 'fastify';
import { defineModule } from '../area.js';
import { accountRoutes } from './account.routes.js';
import { purgeExpiredJob } from './auth.jobs.js';
import { authRoutes } from './auth.routes.js';
import { sessionResolver } from './auth.sessions.js';
import { generatePassword, hashPassword } from './password.js';
import * as m0051 from './migrations/0051_login_failure.js';
import * as m0220 from './migrations/0220_known_address.js';
import './auth.tables.js';

const routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(accountRoutes);
};

/** Sign-in, two-step codes, trusted browsers, registration and password changes (spec section 9). */
export const authModule = defineModule({
  name: 'auth',
  migrations: { '0051_login_failure': m0051, '0220_known_address': m0220 },
  routes,
  jobs: [purgeExpiredJob],
  sessions: sessionResolver,
  passwords: { generatePassword, hashPassword },
});
