import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../../http/access-plugin.js';
import { routeOptions } from '../../../http/route-options.js';
import { ErrorBodySchema } from '../../../http/schemas.js';
import { PagedListBody } from '../paged-list.js';
import { deleteRolesFor, deleteRulesFor, fetchRoles, fetchRules, findOneRole, saveRole, saveRule, typeAndPerm } from './role.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
/** The options of a role or rule route: who may call it, its summary, request and answer (anything when not given), or an error body. */
const route = routeOptions(['role'], errors);
const ROLE_VIEW = { right: 'identity.role:view', scope: 'none' } as const;
/** The answers of a save and of a delete. */
const Saved = Type.Object({ id: Type.Number() });
const Deleted = Type.Object({ deleted: Type.Number() });
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 });
const PermissionSchema = Type.Object({
  module: Type.String({ minLength: 1, maxLength: 100 }),
  subModule: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  view: Type.Optional(Type.Boolean()),
  add: Type.Optional(Type.Boolean()),
  edit: Type.Optional(Type.Boolean()),
  delete: Type.Optional(Type.Boolean()),
});

/** A role or rule saved: its id (none to add it) and name come first. */
const Named = { id: Type.Optional(Type.Integer({ minimum: 1 })), name: Type.String({ minLength: 1, maxLength: 100 }) };
const Description = Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]));
const RoleBody = Type.Object({
  ...Named,
  roleType: Type.Optional(Type.String({ maxLength: 50 })),
  roleLevel: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
  description: Description,
  enabled: Type.Optional(Type.Boolean()),
  permissions: Type.Optional(Type.Array(PermissionSchema, { maxItems: 2000 })),
  ruleIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 })),
  userIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 10000 })),
});
const RuleBody = Type.Object({ ...Named, ruleType: Type.String({ maxLength: 50 }), description: Description });

/** Roles and rules (/role, /role/fetch, /role/delete, /role/findOne, /role/typeAndPerm). */
export const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post('/role/fetch', route(ROLE_VIEW, 'List roles (paged)', { body: Type.Object({ ...PagedListBody }) }), (request) => fetchRoles(db, request.body));

  app.post('/role/findOne', route(ROLE_VIEW, 'One role with rights, rules and users', { body: Type.Object({ id: Type.Integer({ minimum: 1 }) }) }), (request) =>
    findOneRole(db, requireUser(request), request.body.id),
  );

  // Editing is the route's right; adding (no id) also needs role:add, checked by the service.
  app.post('/role', route({ right: 'identity.role:edit', scope: 'none' }, 'Add or edit a role', { body: RoleBody }, Saved), (request) => saveRole(db, requireUser(request), request.body));

  app.post('/role/delete', route({ right: 'identity.role:delete', scope: 'none' }, 'Delete roles', { body: Type.Object({ ids: Ids }) }, Deleted), (request) =>
    deleteRolesFor(db, requireUser(request), request.body.ids),
  );

  app.get('/role/typeAndPerm', route(ROLE_VIEW, 'Role types, rule types and the module catalogue'), () => typeAndPerm(db));

  app.post('/rule/fetch', route({ right: 'identity.all_rule:view', scope: 'none' }, 'List rules'), () => fetchRules(db));

  app.post('/rule', route({ right: 'identity.all_rule:edit', scope: 'none' }, 'Add or edit a rule', { body: RuleBody }, Saved), (request) => saveRule(db, requireUser(request), request.body));

  app.post('/rule/delete', route({ right: 'identity.all_rule:delete', scope: 'none' }, 'Delete rules', { body: Type.Object({ ids: Ids }) }, Deleted), (request) =>
    deleteRulesFor(db, request.body.ids),
  );
};
