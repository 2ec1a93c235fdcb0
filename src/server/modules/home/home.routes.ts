import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { changeNavLayout, mostUsedPages, recordVisit, summarizeOpenWork } from './home.service.js';

const WorkSummarySchema = Type.Object({
  /** An area's kind of work, e.g. `asn`, `order`, `count`. */
  kind: Type.String(),
  available: Type.Boolean(),
  total: Type.Integer(),
  byStatus: Type.Array(Type.Object({ status: Type.String(), count: Type.Integer() })),
  /** The text key prefix of its statuses: `<statusTexts>.<status>`. */
  statusTexts: Type.String(),
  /** The page route that lists this work, when there is one. */
  listRoute: Type.Optional(Type.String()),
});

const SummaryAnswer = Type.Object({ work: Type.Array(WorkSummarySchema) });

const RouteTableAnswer = Type.Object({
  groups: Type.Array(Type.Object({ code: Type.String(), titleKey: Type.String(), sequence: Type.Integer() })),
  routes: Type.Array(
    Type.Object({
      route: Type.String(),
      group: Type.String(),
      titleKey: Type.String(),
      target: Type.Union([
        Type.Object({ kind: Type.Literal('definition'), moduleCode: Type.String(), functionCode: Type.String() }),
        Type.Object({ kind: Type.Literal('screen') }),
        Type.Object({ kind: Type.Literal('pending') }),
      ]),
    }),
  ),
});

const ShortcutsAnswer = Type.Object({
  items: Type.Array(Type.Object({ route: Type.String(), visits: Type.Integer(), lastVisitedAt: Type.String() })),
});

/** A /page child route name as the shell's route table spells it (e.g. `sku`, `all_rule`). */
const VisitBody = Type.Object({ route: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }) }, { additionalProperties: false });

const LayoutBody = Type.Object({ navLayout: Type.Union([Type.Literal('left'), Type.Literal('top')]) }, { additionalProperties: false });

const Ok = Type.Object({ ok: Type.Literal(true) });

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };
/** The options of a home route: who may call it, its summary, request and answer, or an error body. */
const route = routeOptions(['home'], errors);
const SESSION = { session: true } as const;

/** The home page's calls, the shell's route table and the administrator's navigation layout setting. */
export const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/home/summary', route(SESSION, "Open work of the session's warehouse by kind and status", {}, SummaryAnswer), async (request) => ({
    work: await summarizeOpenWork(app.database.db, requireUser(request), app.areas.homeItems()),
  }));

  app.get('/home/routes', route(SESSION, "The /page routes and menu groups of the kernel and the areas, in menu order: the shell's route table", {}, RouteTableAnswer), async () => {
    const { groups, routes } = app.areas.routeTable;
    return { groups, routes: routes.map(({ route, group, titleKey, target }) => ({ route, group, titleKey, target })) };
  });

  app.get('/home/shortcuts', route(SESSION, "The user's most used pages", {}, ShortcutsAnswer), async (request) => {
    const rows = await mostUsedPages(app.database.db, requireUser(request));
    return { items: rows.map((r) => ({ route: r.route, visits: r.visits, lastVisitedAt: r.lastVisitedAt.toISOString() })) };
  });

  app.post('/home/visit', route(SESSION, 'Records that the user opened a page', { body: VisitBody }, Ok), async (request) => {
    await recordVisit(app.database.db, requireUser(request), request.body.route);
    return { ok: true as const };
  });

  app.put('/home/layout', route({ admin: true }, "Sets the navigation layout of the session's warehouse (else project)", { body: LayoutBody }, Ok), async (request) => {
    await changeNavLayout(app.database.db, requireUser(request), request.body.navLayout);
    return { ok: true as const };
  });
};
