import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorBody } from '../../http/error-handler.js';
import { APP_VERSION } from '../../version.js';
import { ErrorBodySchema } from '../../http/schemas.js';

const HealthAnswer = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  database: Type.Object({ kind: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]), version: Type.String() }),
});

/** `GET /api/health`: 200 with versions while the database answers, 503 when it does not. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['system'],
        summary: 'Health of the server and its database',
        response: { 200: HealthAnswer, 503: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { database } = app;
      try {
        const version = await withTimeout(database.version(), 3000);
        return { status: 'ok' as const, version: APP_VERSION, database: { kind: database.kind, version } };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database does not answer');
        return reply.status(503).send(errorBody(request.language, 'DATABASE_UNAVAILABLE'));
      }
    },
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
