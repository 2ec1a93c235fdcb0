import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { registerErrorHandling, sendError } from './http/error-handler.js';
import { translatorWith } from './http/i18n.js';
import { registerInputGuard } from './http/input-guard.js';
import { quantityKeyword } from './http/quantity-schema.js';
import { SHARED_SCHEMA_COMPILERS } from './http/schema-compilers.js';
import accessPlugin from './http/access-plugin.js';
import { setAfterCommitReporter } from './db/transaction.js';
import { EventBus, type DomainEventHandler } from './events/events.js';
import { listenForEvents } from './events/listener.js';
import { DefinitionStore } from './definitions/definition-store.js';
import type { AreaModule } from './area-kit/area.js';
import { AreaRegistry } from './area-kit/area-registry.js';
import { APP_VERSION } from './version.js';
import type {} from './http/access.js';

export interface AppOptions {
  config: AppConfig;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /**
   * The business areas: the composition root hands over the list of src/server/modules/index.ts
   * (tests may add their own). They bring routes, rights, session and right checks and row filters.
   */
  modules: readonly AreaModule[];
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: Database;
    /** What the areas declare: behaviours, writers, right verbs, jobs, routes, error codes. */
    areas: AreaRegistry;
    /** Domain events of this application (src/server/events). */
    events: EventBus;
    /** Resolved page definitions, cached; `definition.changed` events (from any node) invalidate them. */
    definitions: DefinitionStore;
  }
}

/** Builds the Fastify application on an open, migrated database; does not listen. */
export async function buildApp({ config, database, logger, modules }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      // Tokens must never reach a log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      // Readable lines for a person at a terminal; JSON lines for everything else.
      // The JSON lines go through process.stdout, which writes files and pipes at once on Linux: a
      // line is out before the next statement runs (nothing lost to a crash, and the start-up
      // banner of main.ts comes after the start-up lines, not among them).
      ...(process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
        : { stream: process.stdout }),
    },
    // One line per request, written below when it is answered, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    // Quantities have a keyword of their own (http/quantity-schema.ts) that sees the value before any coercion.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true }, plugins: [quantityKeyword] },
    // Compiled once per process however many apps it builds (http/schema-compilers.ts).
    schemaController: SHARED_SCHEMA_COMPILERS,
    // The start's own steps (the job scheduler's queue setting up its tables on PostgreSQL, the
    // event listener's connection) run as plugins and ready hooks: on a busy machine one can take
    // longer than Fastify's 10 s default, and a start that is slow must not fail for it. A step
    // that truly hangs still fails the start, after a minute, naming the hook.
    pluginTimeout: 60_000,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('database', database);
  const areas = new AreaRegistry(modules);
  app.decorate('areas', areas);
  const events = new EventBus(app.log);
  app.decorate('events', events);
  setAfterCommitReporter((error) => app.log.error({ err: error }, 'after-commit work failed'));
  for (const module of modules) {
    for (const [name, handlers] of Object.entries(module.events ?? {})) {
      for (const handler of handlers as DomainEventHandler[]) events.on(name as never, handler);
    }
  }
  const definitions = new DefinitionStore(database.db, app.log, areas.rowFilters());
  events.on('definition.changed', (change) => definitions.invalidate(change));
  events.on('events.resync', () => definitions.invalidate({ projectId: null, all: true }));
  app.decorate('definitions', definitions);
  // Events of the other app nodes arrive through LISTEN/NOTIFY; on PGlite there is only this one.
  if (database.kind === 'postgres' && config.databaseUrl) {
    const listener = listenForEvents(config.databaseUrl, events, database.db, app.log);
    app.addHook('onReady', async () => listener.ready);
    app.addHook('onClose', async () => listener.close());
  }
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // One log line per API request; static files only at debug.
  app.addHook('onResponse', (request, reply, done) => {
    const line = { method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (request.url.startsWith('/api')) request.log.info(line, 'request');
    else request.log.debug(line, 'request');
    done();
  });

  registerErrorHandling(app, translatorWith(areas.contentRoots()));
  registerInputGuard(app);
  // Security headers on the app and the API. The one exception to a strict policy
  // is style-src 'unsafe-inline': antd and ag-grid inject their styles at run time and React sets
  // style attributes; scripts, workers (monaco's are files of the build) and connections stay 'self',
  // and nothing needs eval.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        workerSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        frameSrc: ["'self'", 'blob:'],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // HSTS only makes sense (and is only honoured) when the app is served over HTTPS.
    hsts: config.publicUrl?.startsWith('https://') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  // gzip/brotli for API answers and the app's files; small answers stay as they are.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyCookie);
  // Before any route: it refuses routes without config.access and checks every request.
  await app.register(accessPlugin);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Warehouse management API', version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  for (const module of modules) {
    if (module.routes) await app.register(module.routes, { prefix: '/api' });
  }

  const indexHtml = path.join(config.distDir, 'index.html');
  const hasClient = fs.existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.distDir,
      prefix: '/',
      wildcard: false,
      index: 'index.html',
      // Files under /assets carry a content hash in their name: cached for a year and never revalidated.
      // index.html names them, so it must always be asked again.
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    // Hash routing keeps client paths out of the URL path, so only `/` and assets are ours;
    // any other path that is not an API call still gets the app, which shows /notfound.
    if (hasClient && request.method === 'GET' && !url.startsWith('/api') && !path.extname(url)) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 404, 'ROUTE_NOT_FOUND');
  });

  return app;
}
