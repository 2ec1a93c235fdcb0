import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { readMultipart, registerMultipart } from '../../http/multipart.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { importRecordsToPage, requestContext, requirePageRight, type GenericContext } from '../generic/index.js';
import { findTemplate, templateColumns, templatesForPage } from './imports.repository.js';
import { parseWithTemplate } from './template-parse.js';

const IMPORT_FILE_LIMIT_BYTES = 20 * 1024 * 1024;
const CODE = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

/** Import templates at work (`/importConfig`): the templates of a page, and an import through one. */
export const importsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await registerMultipart(app, { fileSize: IMPORT_FILE_LIMIT_BYTES, files: 1, fields: 10 });
  const context = (request: FastifyRequest): GenericContext => requestContext(app, request);
  const tags = ['importConfig'];

  app.get(
    '/importConfig/forPage',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: "The project's import templates that add rows to a page",
        querystring: Type.Object({ moduleCode: Type.String({ pattern: CODE }), functionCode: Type.String({ pattern: CODE }) }),
        response: { 200: Type.Object({ templates: Type.Array(Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), fileType: Type.String() })) }), ...errors },
      },
    },
    async (request) => {
      const ctx = context(request);
      await requirePageRight(ctx, request.query, 'add');
      if (ctx.user.projectId === null) return { templates: [] };
      const rows = await templatesForPage(ctx.db, ctx.user.projectId, request.query.moduleCode, request.query.functionCode);
      const nameOf = (row: (typeof rows)[number]) =>
        (ctx.language === 'zh' ? row.name_zh : ctx.language === 'zh_tw' ? row.name_zh_tw : ctx.language === 'jp' ? row.name_jp : null) || row.name_en;
      return { templates: rows.map((row) => ({ id: row.id, code: row.code, name: nameOf(row), fileType: row.file_type })) };
    },
  );

  app.post(
    '/importConfig/import',
    { config: { access: { session: true } }, schema: { tags, summary: 'Import a file through an import template (multipart: templateId, file)', response: { 200: Type.Object({ inserted: Type.Integer() }), ...errors } } },
    async (request) => {
      const ctx = context(request);
      const { fields, files } = await readMultipart(request);
      const file = files.find((f) => f.fieldName === 'file') ?? files[0];
      const templateId = /^\d{1,15}$/.test(fields.templateId ?? '') ? Number(fields.templateId) : undefined;
      const missing = [...(templateId === undefined ? ['templateId'] : []), ...(file ? [] : ['file'])];
      if (missing.length) throw new AppError('VALIDATION_FAILED', {}, missing.map((field) => ({ field, code: 'FIELD_REQUIRED' })));
      const template = ctx.user.projectId === null ? undefined : await findTemplate(ctx.db, ctx.user.projectId, templateId!);
      if (!template || !template.active) throw new AppError('NO_RECORD');
      const ref = { moduleCode: template.module_code, functionCode: template.function_code };
      await requirePageRight(ctx, ref, 'add');
      const columns = await templateColumns(ctx.db, template.id);
      if (!columns.length) throw new AppError('IMPORT_FILE_INVALID', { reason: 'the template has no columns' });
      const parsed = await parseWithTemplate(template, columns, file.fileName, file.data);
      if (parsed.errors.length) throw new AppError('IMPORT_REJECTED', { rows: parsed.records.length }, parsed.errors);
      return importRecordsToPage(ctx, ref, parsed.records);
    },
  );
};
