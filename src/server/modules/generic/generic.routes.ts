import { PassThrough } from 'node:stream';
import { readMultipart, registerMultipart } from '../../http/multipart.js';
import { translate } from '../../http/i18n.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import {
  AddingRequestSchema,
  BehaviourRequestSchema,
  DeletionRequestSchema,
  DropdownRequestSchema,
  ExportRequestSchema,
  PageViewQuerySchema,
  SelectionRequestSchema,
  TabRequestSchema,
  UomRequestSchema,
  UpdatingRequestSchema,
} from '../../../../engine/schema/api.js';
import type { EngineRow } from '../../../../engine/server/index.js';
import type { FieldDefinition } from '../../../../engine/schema/index.js';
import { AppError } from '../../../common/errors.js';
import type { RouteAccess } from '../../http/access.js';
import type { RightName } from '../../../common/rights.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { hasRight } from '../identity/index.js';
import { requestContext, type GenericContext } from './generic.context.js';
import { dropdown, planExport, selectRows, tabRows, uomOptions, viewPage } from './generic.read.js';
import { addRow, deleteRows, importRows, updateRowOfPage } from './generic.write.js';
import { runBehaviour } from './generic.behaviour.js';
import { createExportSheet } from './export-workbook.js';

/**
 * Every generic call needs a session; the module right (`<moduleCode>:view|add|edit|delete`)
 * depends on the page named in the body, so the service checks it before anything runs.
 */
const SESSION: RouteAccess = { session: true };
const IMPORT_FILE_LIMIT_BYTES = 20 * 1024 * 1024;

const RowSchema = Type.Record(Type.String(), Type.Unknown());
const RowsAnswer = Type.Object({ rows: Type.Array(RowSchema), total: Type.Integer(), totalEstimated: Type.Optional(Type.Boolean()) });
const OptionsAnswer = Type.Object({
  options: Type.Array(
    Type.Object({
      value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
      label: Type.Optional(Type.String()),
      labelCode: Type.Optional(Type.String()),
    }),
  ),
  truncated: Type.Boolean(),
});
const RowAnswer = Type.Object({ row: RowSchema });
const ViewAnswer = Type.Object({
  definition: Type.Unknown(),
  version: Type.Integer(),
  projectSpecific: Type.Boolean(),
  rights: Type.Object({ view: Type.Boolean(), add: Type.Boolean(), edit: Type.Boolean(), delete: Type.Boolean() }),
  deniedBehaviours: Type.Optional(Type.Array(Type.String())),
});
const BehaviourAnswer = Type.Object({
  result: Type.Unknown(),
  messageCode: Type.Optional(Type.String()),
  messageParams: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  links: Type.Optional(
    Type.Array(
      Type.Object({
        labelCode: Type.String(),
        labelParams: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
        moduleCode: Type.String(),
        functionCode: Type.String(),
        filter: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
      }),
    ),
  ),
  refusal: Type.Optional(
    Type.Object({
      code: Type.String(),
      message: Type.String(),
      params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
    }),
  ),
});
const TabAnswer = Type.Object({ rows: Type.Array(RowSchema), total: Type.Integer(), totalEstimated: Type.Optional(Type.Boolean()), moduleCode: Type.String(), functionCode: Type.String() });
/** The xlsx stream of an export; described for the OpenAPI page, never serialized. */
const FileAnswer = Type.Unknown({ description: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

/** The generic engine API: the calls every screen built from a page definition makes (docs/architecture.md). */
export const genericRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await registerMultipart(app, { fileSize: IMPORT_FILE_LIMIT_BYTES, files: 1, fields: 10 });
  const context = (request: FastifyRequest): GenericContext => requestContext(app, request);
  const tags = ['generic'];

  /** A call whose JSON body the service takes with the caller's context, answering `answer`. */
  const UOM_READERS: RightName[] = ['masterdata.sku:view', 'outbound.soDetail:view', 'outbound.psoDetail:view', 'inbound.asnLine:view'];

  function pageCall<Body extends TSchema>(
    url: string,
    summary: string,
    body: Body,
    answer: TSchema,
    handle: (ctx: GenericContext, body: Static<Body>) => Promise<unknown>,
    access: RouteAccess = SESSION,
  ): void {
    app.post(url, { config: { access }, schema: { tags, summary, body, response: { 200: answer, ...errors } } }, async (request) =>
      handle(context(request), request.body as Static<Body>),
    );
  }

  app.get(
    '/generic/module/view',
    { config: { access: SESSION }, schema: { tags, summary: 'The resolved page definition', querystring: PageViewQuerySchema, response: { 200: ViewAnswer, ...errors } } },
    async (request) => viewPage(context(request), request.query),
  );

  pageCall('/generic/selection', 'One page of rows', SelectionRequestSchema, RowsAnswer, selectRows);
  pageCall('/generic/adding', 'Add a record', AddingRequestSchema, RowAnswer, addRow);
  pageCall('/generic/updating', 'Update a record at the version read', UpdatingRequestSchema, RowAnswer, updateRowOfPage);
  pageCall('/generic/deletion', 'Delete records', DeletionRequestSchema, Type.Object({ deleted: Type.Integer() }), deleteRows);

  app.post(
    '/generic/export',
    { config: { access: SESSION }, schema: { tags, summary: 'Matching rows as an xlsx file', body: ExportRequestSchema, response: { 200: FileAnswer, ...errors } } },
    async (request, reply) => {
      const plan = await planExport(context(request), request.body);
      const stream = new PassThrough();
      // Streaming writer: rows go out as they are read, the file is never whole in memory.
      const sheet = await createExportSheet(plan, stream);
      // Nothing is sent before the first batch is read: a failure up to then is an ordinary JSON
      // error. A failure later (the connection to the database lost midway) cannot change the
      // status any more, so the file is finished with a row saying it is incomplete instead of a
      // dropped connection.
      let firstBatch!: () => void;
      const started = new Promise<void>((resolve) => (firstBatch = resolve));
      let streaming = false;
      const write = async (rows: EngineRow[], labelOf: (field: FieldDefinition, value: unknown) => string | undefined) => {
        sheet.addRows(rows, labelOf);
        if (!streaming) {
          streaming = true;
          firstBatch();
        }
        // Let the socket drain between batches.
        await new Promise((resolve) => setImmediate(resolve));
      };
      const finished = plan.run(write).then(
        () => sheet.finish(),
        async (error: unknown) => {
          if (!streaming) throw error;
          request.log.error({ err: error }, 'export failed while streaming');
          sheet.addNote(translate(request.language, 'errors.EXPORT_INCOMPLETE'));
          await sheet.finish();
        },
      );
      await Promise.race([started, finished]);
      const fileName = `${request.body.moduleCode}-${request.body.functionCode}.xlsx`;
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  );

  app.post(
    '/generic/import',
    { config: { access: SESSION }, schema: { tags, summary: 'Import an xlsx or csv file through a field map (multipart)', response: { 200: Type.Object({ inserted: Type.Integer() }), ...errors } } },
    async (request) => {
      const { fields, files } = await readMultipart(request);
      const file = files.find((f) => f.fieldName === 'file') ?? files[0];
      const missing = ['moduleCode', 'functionCode', 'fieldMap'].filter((name) => !fields[name]);
      if (!file) missing.push('file');
      if (missing.length) throw new AppError('VALIDATION_FAILED', {}, missing.map((field) => ({ field, code: 'FIELD_REQUIRED' })));
      const code = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
      const bad = ['moduleCode', 'functionCode', 'fieldMap'].filter((name) => !code.test(fields[name]));
      if (bad.length) throw new AppError('VALIDATION_FAILED', {}, bad.map((field) => ({ field, code: 'FIELD_TYPE' })));
      return importRows(context(request), {
        moduleCode: fields.moduleCode,
        functionCode: fields.functionCode,
        fieldMap: fields.fieldMap,
        fileName: file.fileName,
        data: file.data,
      });
    },
  );

  pageCall('/generic/dropdown', 'Choices of a field', DropdownRequestSchema, OptionsAnswer, dropdown);
  // Units of measure are the SKU master's packages: reading them is reading that page.
  // The unit dropdown of the order and ASN line forms: whoever may view the SKU master or one of
  // those line pages may read a SKU's units (a refusal would end a clerk's session in the browser).
  pageCall('/generic/uom', "Units of measure; needs the view right of the SKU master or of an order or ASN line page", UomRequestSchema, OptionsAnswer, async (ctx, body) => {
    let allowed = false;
    for (const right of UOM_READERS) allowed ||= await hasRight(ctx.db, ctx.user, right);
    if (!allowed) throw new AppError('FORBIDDEN', { right: UOM_READERS[0] });
    return uomOptions(ctx, body);
  });
  pageCall('/generic/behavior', 'Run a behaviour of the page, or with preview: true say what it would do (read only)', BehaviourRequestSchema, BehaviourAnswer, runBehaviour);
  pageCall('/generic/tab', 'Sub-page rows of a header row', TabRequestSchema, TabAnswer, tabRows);
};
