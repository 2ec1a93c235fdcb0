import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { deleteRolesFor, deleteRulesFor, fetchRoles, fetchRules, findOneRole, saveRole, saveRule, typeAndPerm } from './role.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 });
const PermissionSchema = Type.Object({
  module: Type.String({ minLength: 1, maxLength: 100 }),
  subModule: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  view: Type.Optional(Type.Boolean()),
  add: Type.Optional(Type.Boolean()),
  edit: Type.Optional(Type.Boolean()),
  delete: Type.Optional(Type.Boolean()),
});

/** Roles and rules (spec section 3 "Role", section 7 /role, /role/fetch, /role/delete, /role/findOne, /role/typeAndPerm). */
export const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post(
    '/role/fetch',
    {
      config: { access: { right: 'setup.role:view', scope: 'none' } },
      schema: {
        tags: ['role'],
        summary: 'List roles (paged)',
        body: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1 })),
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          search: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 200: Type.Any(), ...errors },
      },
    },
    (request) => fetchRoles(db, request.body),
  );

  app.post(
    '/role/findOne',
    {
      config: { access: { right: 'setup.role:view', scope: 'none' } },
      schema: { tags: ['role'], summary: 'One role with rights, rules and users', body: Type.Object({ id: Type.Integer({ minimum: 1 }) }), response: { 200: Type.Any(), ...errors } },
    },
    (request) => findOneRole(db, requireUser(request), request.body.id),
  );

  app.post(
    '/role',
    {
      // Editing is the route's right; adding (no id) also needs role:add, checked by the service.
      config: { access: { right: 'setup.role:edit', scope: 'none' } },
      schema: {
        tags: ['role'],
        summary: 'Add or edit a role',
        body: Type.Object({
          id: Type.Optional(Type.Integer({ minimum: 1 })),
          name: Type.String({ minLength: 1, maxLength: 100 }),
          roleType: Type.Optional(Type.String({ maxLength: 50 })),
          roleLevel: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
          description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
          enabled: Type.Optional(Type.Boolean()),
          permissions: Type.Optional(Type.Array(PermissionSchema, { maxItems: 2000 })),
          ruleIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 })),
          userIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 10000 })),
        }),
        response: { 200: Type.Object({ id: Type.Number() }), ...errors },
      },
    },
    (request) => saveRole(db, requireUser(request), request.body),
  );

  app.post(
    '/role/delete',
    {
      config: { access: { right: 'setup.role:delete', scope: 'none' } },
      schema: { tags: ['role'], summary: 'Delete roles', body: Type.Object({ ids: Ids }), response: { 200: Type.Object({ deleted: Type.Number() }), ...errors } },
    },
    (request) => deleteRolesFor(db, requireUser(request), request.body.ids),
  );

  app.get(
    '/role/typeAndPerm',
    {
      config: { access: { right: 'setup.role:view', scope: 'none' } },
      schema: { tags: ['role'], summary: 'Role types, rule types and the module catalogue', response: { 200: Type.Any(), ...errors } },
    },
    () => typeAndPerm(db),
  );

  app.post(
    '/rule/fetch',
    {
      config: { access: { right: 'setup.all_rule:view', scope: 'none' } },
      schema: { tags: ['role'], summary: 'List rules', response: { 200: Type.Any(), ...errors } },
    },
    () => fetchRules(db),
  );

  app.post(
    '/rule',
    {
      config: { access: { right: 'setup.all_rule:edit', scope: 'none' } },
      schema: {
        tags: ['role'],
        summary: 'Add or edit a rule',
        body: Type.Object({
          id: Type.Optional(Type.Integer({ minimum: 1 })),
          name: Type.String({ minLength: 1, maxLength: 100 }),
          ruleType: Type.String({ maxLength: 50 }),
          description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
        }),
        response: { 200: Type.Object({ id: Type.Number() }), ...errors },
      },
    },
    (request) => saveRule(db, requireUser(request), request.body),
  );

  app.post(
    '/rule/delete',
    {
      config: { access: { right: 'setup.all_rule:delete', scope: 'none' } },
      schema: { tags: ['role'], summary: 'Delete rules', body: Type.Object({ ids: Ids }), response: { 200: Type.Object({ deleted: Type.Number() }), ...errors } },
    },
    (request) => deleteRulesFor(db, request.body.ids),
  );
};
