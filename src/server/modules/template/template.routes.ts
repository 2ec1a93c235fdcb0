import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser } from '../../http/access-plugin.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { registerMultipart } from '../../http/multipart.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { hasRight } from '../identity/index.js';
import { attachmentMultipartLimits, readUploadWithinLimit } from '../attachment/index.js';
import { TEMPLATE_KINDS, defaultTemplate, type TemplateKind } from './template.defaults.js';
import { TEMPLATE_FONT_NAMES, TEMPLATE_JSON_MAX, renderTemplate, templateSchemaTypes, type TemplateInputs } from './template.pdf.js';
import {
  JRXML_MAX_BYTES,
  copyTargets,
  copyToProject,
  getTemplate,
  listJrxml,
  listTemplates,
  listVersions,
  printDocuments,
  publish,
  readJrxml,
  removeJrxml,
  saveDraft,
  storeJrxml,
  templateToRender,
} from './template.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema };
const route = routeOptions(['template'], errors);

/** Designing and publishing document templates; previewing them; the stored .jrxml files (docs/templates.md). */
const DESIGN = pageAccess('template.design', 'project', 'view', 'add', 'edit', 'publish');
const JRXML = pageAccess('template.jrxml', 'project', 'view', 'add', 'delete');

const Kind = Type.Union(TEMPLATE_KINDS.map((k) => Type.Literal(k)));
/** A document's data: a field's text, or a table's rows. */
const Documents = Type.Array(
  Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,62}$' }), Type.Union([Type.String({ maxLength: 5000 }), Type.Array(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 50 }), { maxItems: 2000 })])),
  { maxItems: 100 },
);

export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  await registerMultipart(app, attachmentMultipartLimits(JRXML_MAX_BYTES));

  app.post('/template/list', route(DESIGN.view, "The session project's document templates"), (request) => listTemplates(db, requireUser(request)));

  app.post('/template/get', route(DESIGN.view, 'One template of the session project with its draft', { body: StrictObject({ id: IdSchema }) }), (request) =>
    getTemplate(db, requireUser(request), request.body.id),
  );

  app.post(
    '/template/shipped',
    route(DESIGN.view, 'The shipped template of a kind (what prints while the project has published none), the field types and the font names a template may use', { body: StrictObject({ kind: Kind }) }),
    async (request) => ({ template: await defaultTemplate(request.body.kind as TemplateKind), schemaTypes: await templateSchemaTypes(), fontNames: TEMPLATE_FONT_NAMES }),
  );

  app.post(
    '/template/save',
    route(DESIGN.edit, "Saves a template's draft (code, kind, name, pdfme template JSON and, for a report template, the report of the project it prints) after the JSON passed its checks; a new one needs the add right", {
      body: StrictObject({
        id: Type.Optional(IdSchema),
        code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$' }),
        kind: Kind,
        name: Type.String({ minLength: 1, maxLength: 200 }),
        template: Type.Unknown(),
        reportId: Type.Optional(Type.Union([IdSchema, Type.Null()])),
      }),
    }),
    async (request) => {
      const user = requireUser(request);
      const body = request.body;
      if (body.id === undefined && !(await hasRight(db, user, DESIGN.add.right))) throw new AppError('FORBIDDEN', { right: DESIGN.add.right });
      if (JSON.stringify(body.template ?? null).length > TEMPLATE_JSON_MAX) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'template', code: 'TEMPLATE_INVALID', params: { reason: 'too large' } }]);
      return inTransaction(db, (trx) => saveDraft(trx, user, { ...body, kind: body.kind }));
    },
  );

  app.post('/template/publish', route(DESIGN.publish, "Publishes a template's draft as its next version; the next print uses it", { body: StrictObject({ id: IdSchema }) }), (request) =>
    inTransaction(db, (trx) => publish(trx, requireUser(request), request.body.id)),
  );

  app.post('/template/versions', route(DESIGN.view, "A template's published versions, newest first", { body: StrictObject({ id: IdSchema }) }), (request) =>
    listVersions(db, requireUser(request), request.body.id),
  );

  app.post(
    '/template/copy',
    route(DESIGN.edit, "Copies a template's draft to another project the caller holds, as that project's draft of the same code", { body: StrictObject({ id: IdSchema, projectId: IdSchema }) }),
    (request) => inTransaction(db, (trx) => copyToProject(trx, requireUser(request), request.body.id, request.body.projectId)),
  );

  app.post('/template/copyTargets', route(DESIGN.edit, 'The projects besides the session one that the caller holds, to copy a template to'), (request) => copyTargets(db, requireUser(request)));

  app.post(
    '/report/generic/print/preview',
    route(DESIGN.view, "A template rendered with documents' data as PDF: a template's published version (its draft with `draft`), or the project's template of a kind (the shipped one while none is published)", {
      body: StrictObject({ templateId: Type.Optional(IdSchema), kind: Type.Optional(Kind), draft: Type.Optional(Type.Boolean()), documents: Type.Optional(Documents) }),
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const documents = (body.documents ?? []) as TemplateInputs[];
      let pdf: Buffer;
      if (body.templateId !== undefined) {
        if (body.draft === true && !(await hasRight(db, user, DESIGN.edit.right))) throw new AppError('FORBIDDEN', { right: DESIGN.edit.right });
        pdf = await renderTemplate(await templateToRender(db, user, body.templateId, body.draft === true), documents, request.language);
      } else if (body.kind !== undefined) {
        pdf = await printDocuments(db, requireProject(user).projectId, body.kind, documents, request.language);
      } else throw new AppError('VALIDATION_FAILED', {}, [{ field: 'templateId', code: 'FIELD_REQUIRED' }]);
      return reply.header('content-type', 'application/pdf').header('content-disposition', 'inline; filename="preview.pdf"').send(pdf);
    },
  );

  app.post('/template/jrxml/list', route(JRXML.view, "The session project's stored .jrxml files"), (request) => listJrxml(db, requireUser(request)));

  app.post(
    '/template/jrxml/upload',
    route(JRXML.add, 'Stores a Jasper .jrxml file of another system for the session project (multipart: file; at most 1 MB, well-formed XML with the root jasperReport). It is stored, not rendered'),
    async (request) => {
      const user = requireUser(request);
      const upload = await readUploadWithinLimit(request, JRXML_MAX_BYTES);
      const file = upload.files[0];
      if (!file || upload.files.length !== 1) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'file', code: 'FIELD_REQUIRED' }]);
      return inTransaction(db, (trx) => storeJrxml(trx, user, file.fileName, file.data));
    },
  );

  app.post(
    '/template/jrxml/download',
    { ...route(JRXML.view, 'A stored .jrxml file, byte for byte', { body: StrictObject({ id: IdSchema }) }), compress: false },
    async (request, reply) => {
      const file = await readJrxml(db, requireUser(request), request.body.id);
      return reply
        .header('content-type', 'application/xml')
        .header('content-disposition', `attachment; filename="${encodeURIComponent(file.file_name)}"`)
        .send(file.content);
    },
  );

  app.post('/template/jrxml/delete', route(JRXML.delete, 'Deletes a stored .jrxml file', { body: StrictObject({ id: IdSchema }) }), (request) =>
    inTransaction(db, (trx) => removeJrxml(trx, requireUser(request), request.body.id)),
  );
};
