import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdSchema } from '../../../http/schemas.js';
import { Type, type Static } from 'typebox';
import type { ScopeSwitchRequest } from '../../../../common/api-types.js';
import { AppError } from '../../../../common/errors.js';
import { toLanguage } from '../../../../common/languages.js';
import { requireUser } from '../../../http/access-plugin.js';
import { routeOptions } from '../../../http/route-options.js';
import { ErrorBodySchema } from '../../../http/schemas.js';
import { updateUserLanguage } from '../user/user.repository.js';
import { getMenu, getPermissions, getStatus, releaseUser, simulateUser, switchProject, switchWarehouse } from './access.service.js';
import { inTransaction } from '../../../db/transaction.js';

const ScopeOptionSchema = Type.Object({ id: Type.Number(), code: Type.String(), name: Type.String() });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const UserStatusSchema = Type.Object({
  user: Type.Object({
    uid: Type.Number(),
    loginAccount: Type.String(),
    displayName: Type.String(),
    language: Type.String(),
    email: Nullable(Type.String()),
    timeZone: Type.String(),
    isAdmin: Type.Boolean(),
  }),
  organization: Nullable(ScopeOptionSchema),
  project: Nullable(ScopeOptionSchema),
  warehouse: Nullable(ScopeOptionSchema),
  projects: Type.Array(ScopeOptionSchema),
  warehouses: Type.Array(ScopeOptionSchema),
  navLayout: Type.Union([Type.Literal('left'), Type.Literal('top')]),
  simulatedBy: Nullable(Type.Object({ uid: Type.Number(), loginAccount: Type.String() })),
  hasRights: Type.Boolean(),
  expiresAt: Type.String(),
});

const MenuItemSchema = Type.Object({
  code: Type.String(),
  titleKey: Type.String(),
  route: Type.Optional(Type.String()),
  children: Type.Optional(Type.Array(Type.Object({ code: Type.String(), titleKey: Type.String(), route: Type.Optional(Type.String()) }))),
});

const ScopeRefBody = Type.Object({ id: Type.Optional(IdSchema), code: Type.Optional(Type.String({ maxLength: 100 })) });
// The switchers send ScopeSwitchRequest: the schema and the shared type must describe one body
// (the page once sent `warehouseId` where the server read `id`).
type ScopeRef = Static<typeof ScopeRefBody>;
const sameShape: ScopeRef extends ScopeSwitchRequest ? (ScopeSwitchRequest extends ScopeRef ? true : never) : never = true;
void sameShape;
const Ok = Type.Object({ ok: Type.Literal(true) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
/** The options of a session route: who may call it, its summary, request and answer, or an error body. */
const route = routeOptions(['user'], errors);
const SESSION = { session: true } as const;

/** Session scope, menu, status, language and simulation. */
export const accessRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get('/user/status', route(SESSION, 'Who is signed in, in which scope', {}, UserStatusSchema), (request) => getStatus(db, requireUser(request)));

  app.get('/user/menu', route(SESSION, "The menu built from the user's rights", {}, Type.Object({ items: Type.Array(MenuItemSchema) })), (request) => getMenu(db, requireUser(request)));

  app.get(
    '/permission',
    route(
      SESSION,
      "The caller's rights, merged over its roles",
      {},
      Type.Object({
        isAdmin: Type.Boolean(),
        permissions: Type.Array(
          Type.Object({
            module: Type.String(),
            subModule: Nullable(Type.String()),
            view: Type.Boolean(),
            add: Type.Boolean(),
            edit: Type.Boolean(),
            delete: Type.Boolean(),
          }),
        ),
      }),
    ),
    (request) => getPermissions(db, requireUser(request)),
  );

  // Switching the session's project or warehouse, by id or code.
  for (const [url, summary, switchScope] of [
    ['/user/project', "Switch the session's project", switchProject],
    ['/user/whs', "Switch the session's warehouse", switchWarehouse],
  ] as const) {
    app.post(url, route(SESSION, summary, { body: ScopeRefBody }, Ok), async (request) => {
      if (request.body.id === undefined && request.body.code === undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'code', code: 'VALIDATION_FAILED' }]);
      await switchScope(db, requireUser(request), request.body);
      return { ok: true as const };
    });
  }

  app.put(
    '/user/defaultLang',
    route(SESSION, "Save the user's language (name or code 0-5)", { body: Type.Object({ language: Type.Union([Type.String({ maxLength: 10 }), Type.Integer({ minimum: 0, maximum: 5 })]) }) }, Type.Object({ language: Type.String() })),
    async (request) => {
      const language = toLanguage(request.body.language);
      if (!language) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'language', code: 'VALIDATION_FAILED' }]);
      const user = requireUser(request);
      await inTransaction(db, (trx) => updateUserLanguage(trx, user.userId, language, user.loginAccount));
      return { language };
    },
  );

  app.post('/user/simulate', route({ admin: true }, 'Act as another user (administrators)', { body: Type.Object({ uid: IdSchema }) }, Ok), async (request) => {
    await simulateUser(db, requireUser(request), request.body.uid);
    return { ok: true as const };
  });

  app.post('/user/release', route(SESSION, 'End simulating a user', {}, Ok), async (request) => {
    await releaseUser(db, requireUser(request));
    return { ok: true as const };
  });
};
