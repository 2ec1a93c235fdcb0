import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { assignableRoles, batchUpdateUsers, findOneUser, grantOptions, listUsersFor, loginAccounts, saveTimeZone, saveUser, signOutAccount } from './user.service.js';

const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

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
 * User administration (spec sections 3 "User" and 6), shaped so page definitions can drive it:
 * list, findOne, save, batchUpdate. Scope: a non-administrator works on the users of its project.
 */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post(
    '/user/list',
    {
      config: { access: { right: 'setup.user:view', scope: 'project' } },
      schema: {
        tags: ['user'],
        summary: 'List users (paged)',
        body: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1 })),
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          search: Type.Optional(Type.String({ maxLength: 100 })),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Type.Any(), ...errors },
      },
    },
    (request) => listUsersFor(db, requireUser(request), request.body),
  );

  app.post(
    '/user/findOne',
    {
      config: { access: { right: 'setup.user:view', scope: 'project' } },
      schema: { tags: ['user'], summary: 'One user with its grants', body: Type.Object({ uid: Type.Integer({ minimum: 1 }) }), response: { 200: Type.Any(), ...errors } },
    },
    (request) => findOneUser(db, requireUser(request), request.body.uid),
  );

  app.post(
    '/user/save',
    {
      // Editing is the route's right; adding (no uid) also needs user:add, checked by the service.
      config: { access: { right: 'setup.user:edit', scope: 'project' } },
      schema: { tags: ['user'], summary: 'Add or edit a user and its grants', body: SaveUserBody, response: { 200: Type.Object({ uid: Type.Number() }), ...errors } },
    },
    (request) => saveUser(db, requireUser(request), request.body),
  );

  app.post(
    '/user/batchUpdate',
    {
      config: { access: { right: 'setup.user:edit', scope: 'project' } },
      schema: {
        tags: ['user'],
        summary: 'Enable or disable several users',
        body: Type.Object({ uids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }), enabled: Type.Boolean() }),
        response: { 200: Type.Object({ updated: Type.Number() }), ...errors },
      },
    },
    (request) => batchUpdateUsers(db, requireUser(request), request.body),
  );

  app.get(
    '/user/all/loginAccount',
    {
      config: { access: { right: 'setup.user:view', scope: 'project' } },
      schema: {
        tags: ['user'],
        summary: 'Login accounts for dropdowns',
        response: { 200: Type.Array(Type.Object({ uid: Type.Number(), loginAccount: Type.String(), displayName: Type.String() })), ...errors },
      },
    },
    (request) => loginAccounts(db, requireUser(request)),
  );

  app.post(
    '/user/logout/loginAccount',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ['user'],
        summary: "End every session of an account (administrators)",
        body: Type.Object({ loginAccount: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Type.Object({ ended: Type.Number() }), ...errors },
      },
    },
    (request) => signOutAccount(db, requireUser(request), request.body.loginAccount),
  );

  const Option = Type.Object({ id: Type.Number(), code: Type.String(), name: Type.String() });

  app.get(
    '/user/org',
    {
      config: { access: { right: 'setup.user:view', scope: 'project' } },
      schema: {
        tags: ['user'],
        summary: 'Organizations, projects and warehouses the caller may grant',
        response: { 200: Type.Object({ organizations: Type.Array(Option), projects: Type.Array(Option), warehouses: Type.Array(Option) }), ...errors },
      },
    },
    (request) => grantOptions(db, requireUser(request)),
  );

  app.get(
    '/user/role',
    {
      config: { access: { right: 'setup.user:view', scope: 'project' } },
      schema: {
        tags: ['user'],
        summary: 'Roles the caller may assign',
        response: { 200: Type.Array(Type.Object({ id: Type.Number(), name: Type.String(), roleType: Type.String(), roleLevel: Type.Number() })), ...errors },
      },
    },
    (request) => assignableRoles(db, requireUser(request)),
  );

  app.put(
    '/user/timeZone',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['user'],
        summary: "Save the user's time zone",
        body: Type.Object({ timeZone: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Type.Object({ timeZone: Type.String() }), ...errors },
      },
    },
    (request) => saveTimeZone(db, requireUser(request), request.body.timeZone),
  );
};
