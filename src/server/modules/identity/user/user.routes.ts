import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../../http/access-plugin.js';
import { routeOptions } from '../../../http/route-options.js';
import { ErrorBodySchema } from '../../../http/schemas.js';
import { PagedListBody } from '../paged-list.js';
import { assignableRoles, batchUpdateUsers, findOneUser, grantOptions, listUsersFor, loginAccounts, saveTimeZone, saveUser, signOutAccount, signOutUsers } from './user.service.js';

const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
/** The options of a user route: who may call it, its summary, request and answer (anything when not given), or an error body. */
const route = routeOptions(['user'], errors);
const VIEW = { right: 'identity.user:view', scope: 'project' } as const;
const EDIT = { right: 'identity.user:edit', scope: 'project' } as const;

const SaveUserBody = Type.Object({
  uid: Type.Optional(Type.Integer({ minimum: 1 })),
  loginAccount: Type.String({ minLength: 1, maxLength: 100 }),
  displayName: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Type.Union([Type.String({ maxLength: 254 }), Type.Null()])),
  language: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Integer({ minimum: 0, maximum: 5 })])),
  timeZone: Type.Optional(Type.String({ maxLength: 64 })),
  enabled: Type.Optional(Type.Boolean()),
  isAdmin: Type.Optional(Type.Boolean()),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  defaultProjectId: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  defaultWarehouseId: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  organizationIds: Type.Optional(Ids),
  projectIds: Type.Optional(Ids),
  warehouseIds: Type.Optional(Ids),
  roleIds: Type.Optional(Ids),
  profile: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Null()]))),
});

/**
 * User administration and the users' grants, shaped so page definitions can drive it:
 * list, findOne, save, batchUpdate. Scope: a non-administrator works on the users of its project.
 */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post('/user/list', route(VIEW, 'List users (paged)', { body: Type.Object({ ...PagedListBody, enabled: Type.Optional(Type.Boolean()) }) }), (request) =>
    listUsersFor(db, requireUser(request), request.body),
  );

  app.post('/user/findOne', route(VIEW, 'One user with its grants', { body: Type.Object({ uid: Type.Integer({ minimum: 1 }) }) }), (request) =>
    findOneUser(db, requireUser(request), request.body.uid),
  );

  // Editing is the route's right; adding (no uid) also needs user:add, checked by the service.
  app.post('/user/save', route(EDIT, 'Add or edit a user and its grants', { body: SaveUserBody }, Type.Object({ uid: Type.Number() })), (request) =>
    saveUser(db, requireUser(request), request.body),
  );

  app.post(
    '/user/batchUpdate',
    route(EDIT, 'Enable or disable several users', { body: Type.Object({ uids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }), enabled: Type.Boolean() }) }, Type.Object({ updated: Type.Number() })),
    (request) => batchUpdateUsers(db, requireUser(request), request.body),
  );

  app.get(
    '/user/all/loginAccount',
    route(VIEW, 'Login accounts for dropdowns', {}, Type.Array(Type.Object({ uid: Type.Number(), loginAccount: Type.String(), displayName: Type.String() }))),
    (request) => loginAccounts(db, requireUser(request)),
  );

  app.post(
    '/user/logout/loginAccount',
    route({ admin: true }, 'End every session of an account (administrators)', { body: Type.Object({ loginAccount: Type.String({ minLength: 1, maxLength: 100 }) }) }, Type.Object({ ended: Type.Number() })),
    (request) => signOutAccount(db, requireUser(request), request.body.loginAccount),
  );

  const Option = Type.Object({ id: Type.Number(), code: Type.String(), name: Type.String() });

  app.get(
    '/user/org',
    route(VIEW, 'Organizations, projects and warehouses the caller may grant', {}, Type.Object({ organizations: Type.Array(Option), projects: Type.Array(Option), warehouses: Type.Array(Option) })),
    (request) => grantOptions(db, requireUser(request)),
  );

  app.get(
    '/user/role',
    route(VIEW, 'Roles the caller may assign', {}, Type.Array(Type.Object({ id: Type.Number(), name: Type.String(), roleType: Type.String(), roleLevel: Type.Number() }))),
    (request) => assignableRoles(db, requireUser(request)),
  );

  app.put(
    '/user/timeZone',
    route({ session: true }, "Save the user's time zone", { body: Type.Object({ timeZone: Type.String({ minLength: 1, maxLength: 64 }) }) }, Type.Object({ timeZone: Type.String() })),
    (request) => saveTimeZone(db, requireUser(request), request.body.timeZone),
  );

  app.post(
    '/user/signOut',
    {
      config: { access: { right: 'identity.user:edit', scope: 'project' } },
      schema: {
        tags: ['user'],
        summary: 'End every session of several users (never the caller\'s own)',
        body: Type.Object({ uids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }) }),
        response: { 200: Type.Object({ users: Type.Number(), ended: Type.Number() }), ...errors },
      },
    },
    (request) => signOutUsers(db, requireUser(request), request.body.uids),
  );
};
