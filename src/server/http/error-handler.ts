import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorBody, type ErrorCode, type FieldError } from '../../common/errors.js';
import { DEFAULT_LANGUAGE, languageFromAcceptHeader, toLanguage, type Language } from '../../common/languages.js';
import { databaseErrorAnswer } from './database-errors.js';
import { translate, type Translate } from './i18n.js';
import { QUANTITY_KEYWORD, type QuantityErrorParams } from './quantity-schema.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language: the session user's choice once signed in, else the request's. */
    language: Language;
  }
  interface FastifyInstance {
    /** The error texts' translator: the repository's texts and those of areas kept outside it. */
    errorTexts: Translate;
  }
}

export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers['x-language'];
  return (
    toLanguage(Array.isArray(header) ? header[0] : header) ??
    languageFromAcceptHeader(request.headers['accept-language']) ??
    DEFAULT_LANGUAGE
  );
}

export function errorBody(
  language: Language,
  code: ErrorCode,
  params: Record<string, string | number> = {},
  details?: FieldError[],
  texts: Translate = translate,
): ErrorBody {
  return {
    code,
    message: texts(language, `errors.${code}`, params),
    ...(Object.keys(params).length ? { params } : {}),
    ...(details?.length
      ? {
          details: details.map((d) => ({
            ...d,
            message: d.message ?? texts(language, `errors.${d.code}`, { field: d.field, ...d.params }),
          })),
        }
      : {}),
  };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  params: Record<string, string | number> = {},
  details?: FieldError[],
) {
  return reply.status(status).send(errorBody(request.language ?? DEFAULT_LANGUAGE, code, params, details, request.server.errorTexts));
}

/**
 * The one error handler: every failure leaves as `{ code, message, details? }`. An `AppError`
 * answers its code's status: the platform's (common/errors.ts) or the one its area's manifest
 * gives (`app.areas`).
 */
export function registerErrorHandling(app: FastifyInstance, texts: Translate = translate): void {
  app.decorate('errorTexts', texts);
  app.decorateRequest('language', DEFAULT_LANGUAGE);
  app.addHook('onRequest', (request, _reply, done) => {
    request.language = requestLanguage(request);
    done();
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      const status = error.status ?? app.areas.errorStatus(error.code) ?? 500;
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, status, error.code, error.params, error.details);
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const details: FieldError[] = fastifyError.validation.map((v) => {
        const field = fieldPath(v.instancePath, v.params);
        // A quantity refused by the quantity rule: its own code and text, naming the field.
        if (v.keyword === QUANTITY_KEYWORD) {
          const { problem } = v.params as unknown as QuantityErrorParams;
          return { field, code: problem.code, ...(Object.keys(problem.params).length ? { params: problem.params } : {}) };
        }
        return { field, code: 'VALIDATION_FAILED', message: v.message ?? 'invalid' };
      });
      // Only quantities not above 0: answered as the services answer them (QTY_NOT_POSITIVE).
      const code = details.every((d) => d.code === 'QTY_NOT_POSITIVE') ? 'QTY_NOT_POSITIVE' : 'VALIDATION_FAILED';
      const body = errorBody(request.language ?? DEFAULT_LANGUAGE, code, {}, details, app.errorTexts);
      // One quantity refused: its own text (naming the field) is the message, for screens that show only that.
      const only = fastifyError.validation.length === 1 && fastifyError.validation[0].keyword === QUANTITY_KEYWORD ? body.details?.[0]?.message : undefined;
      return reply.status(400).send(only ? { ...body, message: only } : body);
    }
    // A refusal of the database (a constraint, a value it cannot take, a conflict it gave up on).
    const refusal = databaseErrorAnswer(error);
    if (refusal) {
      request.log.warn({ err: error }, 'database refused the request');
      return sendError(request, reply, refusal.status ?? 500, refusal.code, refusal.params, refusal.details);
    }
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(request, reply, 413, 'BODY_TOO_LARGE');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(request, reply, 415, 'UNSUPPORTED_MEDIA_TYPE');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendError(request, reply, 400, 'BAD_JSON');
      default:
        break;
    }
    const status = fastifyError.statusCode ?? 500;
    if (status === 400 && error instanceof SyntaxError) return sendError(request, reply, 400, 'BAD_JSON');
    if (status === 429) return sendError(request, reply, 429, 'TOO_MANY_REQUESTS');
    if (status === 413) return sendError(request, reply, 413, 'UPLOAD_TOO_LARGE');
    if (status >= 400 && status < 500) {
      return sendError(request, reply, status, 'BAD_REQUEST', { reason: fastifyError.message });
    }
    // Unexpected: the whole error goes to the log with the request id, nothing of it to the caller.
    request.log.error({ err: error }, 'unexpected error');
    return sendError(request, reply, 500, 'INTERNAL');
  });
}

/** A field's path as the services name it: `/lines/0/qty` is `lines[0].qty`. */
function fieldPath(instancePath: string, params: Record<string, unknown>): string {
  const segments = instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof params.missingProperty === 'string') segments.push(params.missingProperty);
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '') || '(body)';
}
