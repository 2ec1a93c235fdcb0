import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { CODE_PATTERN } from '../../../../engine/schema/index.js';
import { requireUser } from '../../http/access-plugin.js';
import type { RouteAccess } from '../../http/access.js';
import type { RouteRequest } from '../../http/route-options.js';
import { findUserProjects } from '../identity/index.js';
import { copyToNewProject, copyToProjects, copyWithinProject } from './copy.service.js';
import { sqlSessionOf, type DesignerContext } from './designer.context.js';
import {
  clearDefinitionCache,
  deactivate,
  deleteDraft,
  diffVersions,
  getPage,
  getVersion,
  listAudit,
  listModules,
  listPages,
  publish,
  rollback,
  saveDraft,
} from './designer.service.js';
import { previewSelection, previewTab } from './preview.service.js';
import { testRunSql } from './sql-guard.js';
import { exportDefinitions, importDefinitions } from './transfer.service.js';
import { findMenuGroups } from './menu.repository.js';

/** Reading pages, versions and exports: anyone who may open the designer. */
const VIEW: RouteAccess = { right: 'generic:view', scope: 'project' };
/** Changing definitions or their SQL: the configurator right. */
const EDIT: RouteAccess = { right: 'generic:edit', scope: 'project' };

const Code = Type.String({ pattern: CODE_PATTERN });
const PageKeySchema = Type.Object({ moduleCode: Code, functionCode: Code }, { additionalProperties: false });
const Version = Type.Integer({ minimum: 1 });
/** One stored version of a page: its key and version number. */
const PageVersionSchema = Type.Object({ moduleCode: Code, functionCode: Code, version: Version });
/** The listing part of a live-preview request: conditions, sort and the page of rows. */
const PreviewListing = {
  conditions: Type.Optional(Type.Unknown()),
  sort: Type.Optional(Type.Unknown()),
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100 }),
};
const CopyOptionsSchema = {
  withSubPages: Type.Optional(Type.Boolean()),
  publish: Type.Optional(Type.Boolean()),
};
const Pages = Type.Array(PageKeySchema, { minItems: 1, maxItems: 200 });
const PublishBody = Type.Object({
  moduleCode: Code,
  functionCode: Code,
  version: Type.Optional(Version),
  menu: Type.Optional(Type.Object({ parentCode: Code, sequence: Type.Optional(Type.Integer()) })),
});
const CopyToNewProjectBody = Type.Object({
  projectCode: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$' }),
  projectName: Type.String({ minLength: 1, maxLength: 200 }),
  pages: Pages,
  ...CopyOptionsSchema,
});
const ImportBody = Type.Object({
  files: Type.Array(Type.Object({ path: Type.String({ maxLength: 300 }), content: Type.String({ maxLength: 2_000_000 }) }), { minItems: 1, maxItems: 1000 }),
  dryRun: Type.Boolean(),
});
const SqlTestBody = Type.Object({
  name: Type.String({ maxLength: 63 }),
  text: Type.String({ minLength: 1, maxLength: 20000 }),
  mode: Type.Optional(Type.Union([Type.Literal('read'), Type.Literal('write')])),
  inputs: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))),
});
const PreviewTabBody = Type.Object({
  definition: Type.Unknown(),
  subPage: Code,
  parentKey: Type.Union([Type.String({ maxLength: 200 }), Type.Number()]),
  ...PreviewListing,
});

/** The options of a designer route: who may call it and the request parts it validates. */
const route = <R extends RouteRequest>(access: RouteAccess, schema: R) => ({ config: { access }, schema });

/**
 * The designer's API: the definition store per project (drafts, publish, versions, rollback,
 * diff), copy, export/import between environments, SQL test runs, the live preview and the cache
 * clear.
 */
export const designerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Publishes reach every node's definition cache as `definition.changed` domain events.
  const { events } = app;

  const context = (request: FastifyRequest): DesignerContext => ({
    db: app.database.db,
    user: requireUser(request),
    language: request.language,
    events,
    areas: app.areas,
    log: request.log,
  });

  app.get('/generic/modules', { config: { access: VIEW } }, async (request) => ({ modules: await listModules(context(request)) }));

  app.get('/generic/module', route(VIEW, { querystring: Type.Object({ moduleCode: Type.Optional(Code) }) }), async (request) => ({
    pages: await listPages(context(request), request.query.moduleCode),
  }));

  app.get('/generic/page', route(VIEW, { querystring: PageKeySchema }), async (request) => getPage(context(request), request.query));

  app.get('/generic/version', route(VIEW, { querystring: Type.Object({ moduleCode: Code, functionCode: Code, version: Version, shipped: Type.Optional(Type.Boolean()) }) }), async (request) => {
    const { version, shipped, ...key } = request.query;
    const row = await getVersion(context(request), key, version, shipped === true);
    return { version: row.version, status: row.status, content: row.content };
  });

  app.get('/generic/diff', route(VIEW, { querystring: Type.Object({ moduleCode: Code, functionCode: Code, left: Type.Integer({ minimum: 0 }), right: Type.Integer({ minimum: 0 }) }) }), async (request) => {
    const { left, right, ...key } = request.query;
    return diffVersions(context(request), key, left, right);
  });

  app.get(
    '/generic/audit',
    route(VIEW, { querystring: Type.Object({ moduleCode: Type.Optional(Code), functionCode: Type.Optional(Code), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) }) }),
    async (request) => ({ entries: await listAudit(context(request), request.query) }),
  );

  app.put('/generic/draft', route(EDIT, { body: Type.Object({ moduleCode: Code, functionCode: Code, content: Type.Unknown() }) }), async (request) => {
    const { content, ...key } = request.body;
    return saveDraft(context(request), key, content);
  });

  app.post('/generic/publish', route(EDIT, { body: PublishBody }), async (request) => {
    const { version, menu, ...key } = request.body;
    return publish(context(request), key, { version, menu });
  });

  app.post('/generic/rollback', route(EDIT, { body: PageVersionSchema }), async (request) => {
    const { version, ...key } = request.body;
    return rollback(context(request), key, version);
  });

  app.post('/generic/status', route(EDIT, { body: Type.Object({ moduleCode: Code, functionCode: Code, status: Type.Literal('inactive') }) }), async (request) => {
    const { moduleCode, functionCode } = request.body;
    return deactivate(context(request), { moduleCode, functionCode });
  });

  app.post('/generic/deletion/header', route(EDIT, { body: PageVersionSchema }), async (request) => {
    const { version, ...key } = request.body;
    await deleteDraft(context(request), key, version);
    return { ok: true };
  });

  app.post('/generic/copy', route(EDIT, { body: Type.Object({ from: PageKeySchema, to: PageKeySchema, ...CopyOptionsSchema }) }), async (request) => {
    const { from, to, ...options } = request.body;
    return copyWithinProject(context(request), from, to, options);
  });

  app.post(
    '/generic/copyToProjectList',
    route(EDIT, { body: Type.Object({ pages: Pages, projectCodes: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }), ...CopyOptionsSchema }) }),
    async (request) => {
      const { pages, projectCodes, ...options } = request.body;
      return copyToProjects(context(request), pages, projectCodes, options);
    },
  );

  app.post('/generic/copyToNewProject', route(EDIT, { body: CopyToNewProjectBody }), async (request) => {
    const { projectCode, projectName, pages, ...options } = request.body;
    return copyToNewProject(context(request), { code: projectCode, name: projectName }, pages, options);
  });

  app.post('/generic/redis/clear', { config: { access: EDIT } }, async (request) => {
    await clearDefinitionCache(context(request));
    return { ok: true };
  });

  app.post(
    '/generic/definitions/export',
    route(VIEW, { body: Type.Object({ pages: Type.Optional(Type.Array(PageKeySchema, { maxItems: 1000 })), includeShipped: Type.Optional(Type.Boolean()) }) }),
    async (request) => exportDefinitions(context(request), request.body),
  );

  app.post('/generic/definitions/import', route(EDIT, { body: ImportBody }), async (request) => importDefinitions(context(request), request.body.files, request.body.dryRun));

  app.post('/generic/sql/test', route(EDIT, { body: SqlTestBody }), async (request) => {
    const ctx = context(request);
    const { inputs, ...named } = request.body;
    return testRunSql(ctx.db, named, sqlSessionOf(ctx), inputs ?? {});
  });

  app.post('/generic/preview/selection', route(EDIT, { body: Type.Object({ definition: Type.Unknown(), ...PreviewListing }) }), async (request) => {
    const { definition, ...query } = request.body;
    return previewSelection(context(request), definition, query);
  });

  app.post('/generic/preview/tab', route(EDIT, { body: PreviewTabBody }), async (request) => {
    const { definition, ...query } = request.body;
    const store = app.definitions;
    return previewTab(context(request), (projectId, moduleCode, functionCode) => store.resolve(projectId, moduleCode, functionCode), definition, query);
  });

  app.get('/generic/dropdown/project', { config: { access: VIEW } }, async (request) => {
    const user = requireUser(request);
    const projects = await findUserProjects(app.database.db, user.userId, user.isAdmin);
    return { options: projects.map((p) => ({ value: p.code, label: `${p.code} — ${p.name}` })) };
  });

  app.get('/generic/menu/groups', { config: { access: VIEW } }, async () => {
    const groups = await findMenuGroups(app.database.db);
    return { groups: groups.map((g) => ({ code: g.code, titleKey: g.title_key })) };
  });
};
