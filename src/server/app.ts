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
import { registerInputGuard } from './http/input-guard.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { homeRoutes } from './modules/home/home.routes.js';
import accessPlugin from './http/access-plugin.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { accountRoutes } from './modules/auth/account.routes.js';
import { accessRoutes } from './modules/access/access.routes.js';
import { userRoutes } from './modules/user/user.routes.js';
import { roleRoutes } from './modules/role/role.routes.js';
import { designerRoutes } from './modules/designer/designer.routes.js';
import { genericRoutes } from './modules/generic/generic.routes.js';
import { registerMasterdataBehaviours } from './modules/masterdata/masterdata.behaviours.js';
import { APP_VERSION } from './version.js';
import type {} from './http/access.js';

export interface AppOptions {
  config: AppConfig;
  database: Database;
  logger?: FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: Database;
  }
}

/** Builds the Fastify application on an open, migrated database; does not listen. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      // Tokens must never reach a log (spec section 9; DESIGN.md section 8).
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      // Readable lines for a person at a terminal; JSON lines for everything else (issue 11, item 9).
      ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
    },
    // One line per request, written below when it is answered, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('database', database);
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // One log line per API request (issue 11, item 9); static files only at debug.
  app.addHook('onResponse', (request, reply, done) => {
    const line = { method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (request.url.startsWith('/api')) request.log.info(line, 'request');
    else request.log.debug(line, 'request');
    done();
  });

  registerErrorHandling(app);
  registerInputGuard(app);
  // Security headers on the app and the API (issue 9, item 8). The one exception to a strict policy
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
  // gzip/brotli for API answers and the app's files (issue 11, item 10); small answers stay as they are.
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

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(homeRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api' });
  await app.register(accessRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(roleRoutes, { prefix: '/api' });
  await app.register(designerRoutes, { prefix: '/api' });
  await app.register(genericRoutes, { prefix: '/api' });
  registerMasterdataBehaviours();

  const indexHtml = path.join(config.distDir, 'index.html');
  const hasClient = fs.existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.distDir,
      prefix: '/',
      wildcard: false,
      index: 'index.html',
      // Files under /assets carry a content hash in their name: cached for a year and never revalidated.
      // index.html names them, so it must always be asked again (issue 11, item 10).
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
