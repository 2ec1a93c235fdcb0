import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { changeNavLayout, mostUsedPages, recordVisit, summarizeOpenWork } from './home.service.js';

const WorkSummarySchema = Type.Object({
  kind: Type.Union([Type.Literal('asn'), Type.Literal('order'), Type.Literal('task'), Type.Literal('count'), Type.Literal('putaway'), Type.Literal('wave'), Type.Literal('pick')]),
  available: Type.Boolean(),
  total: Type.Integer(),
  byStatus: Type.Array(Type.Object({ status: Type.String(), count: Type.Integer() })),
});

const SummaryAnswer = Type.Object({ work: Type.Array(WorkSummarySchema) });

const ShortcutsAnswer = Type.Object({
  items: Type.Array(Type.Object({ route: Type.String(), visits: Type.Integer(), lastVisitedAt: Type.String() })),
});

/** A /page child route name as the shell's route table spells it (e.g. `sku`, `all_rule`). */
const VisitBody = Type.Object({ route: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }) }, { additionalProperties: false });

const LayoutBody = Type.Object({ navLayout: Type.Union([Type.Literal('left'), Type.Literal('top')]) }, { additionalProperties: false });

const Ok = Type.Object({ ok: Type.Literal(true) });

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };

/** The home page's calls (issue 4, item 10) and the administrator's navigation layout setting. */
export const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/home/summary',
    {
      config: { access: { session: true } },
      schema: { tags: ['home'], summary: "Open work of the session's warehouse by kind and status", response: { 200: SummaryAnswer, ...errors } },
    },
    async (request) => ({ work: await summarizeOpenWork(app.database.db, requireUser(request)) }),
  );

  app.get(
    '/home/shortcuts',
    {
      config: { access: { session: true } },
      schema: { tags: ['home'], summary: "The user's most used pages", response: { 200: ShortcutsAnswer, ...errors } },
    },
    async (request) => {
      const rows = await mostUsedPages(app.database.db, requireUser(request));
      return { items: rows.map((r) => ({ route: r.route, visits: r.visits, lastVisitedAt: r.lastVisitedAt.toISOString() })) };
    },
  );

  app.post(
    '/home/visit',
    {
      config: { access: { session: true } },
      schema: { tags: ['home'], summary: 'Records that the user opened a page', body: VisitBody, response: { 200: Ok, ...errors } },
    },
    async (request) => {
      await recordVisit(app.database.db, requireUser(request), request.body.route);
      return { ok: true as const };
    },
  );

  app.put(
    '/home/layout',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ['home'],
        summary: "Sets the navigation layout of the session's warehouse (else project)",
        body: LayoutBody,
        response: { 200: Ok, ...errors },
      },
    },
    async (request) => {
      await changeNavLayout(app.database.db, requireUser(request), request.body.navLayout);
      return { ok: true as const };
    },
  );
};
