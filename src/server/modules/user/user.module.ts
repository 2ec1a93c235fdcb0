import { defineModule } from '../area.js';
import { userRoutes } from './user.routes.js';
import { userAccountWriter } from './user.writer.js';
import { userGrantWriter } from './user-grant.writer.js';
import './user.tables.js';

/** User accounts and their grants: the /user screen and its tabs (through the engine and its writers) and the user API. */
export const userModule = defineModule({ name: 'user', routes: userRoutes, writers: [userAccountWriter, userGrantWriter] });
