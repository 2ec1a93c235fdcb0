import { defineModule } from '../area.js';
import { userRoutes } from './user.routes.js';
import { userAccountWriter } from './user.writer.js';
import './user.tables.js';

/** User accounts: the /user screen (through the engine and its writer) and the user API. */
export const userModule = defineModule({ name: 'user', routes: userRoutes, writers: [userAccountWriter] });
