import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireUser } from '../../../http/access-plugin.js';
import { ErrorBodySchema } from '../../../http/schemas.js';
import { createMessageOutbox } from '../../outbox/index.js';
import { login, logout, logoutEverywhere, sendChallengeCode, verifyChallenge, type ClientMeta } from './auth.service.js';
import { AuthorizationCodeBody, LoginBody, LoginSuccessSchema, OkSchema, SendCodeBody, TwoStepChallengeSchema } from './auth.schemas.js';
import { limitBy } from './rate-limits.js';
import { routeOptions } from '../../../http/route-options.js';

export function clientMeta(request: FastifyRequest): ClientMeta {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent : null, language: request.language };
}

/** Sign-in, two-step challenge, sign-out. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const config = app.config;
  const outbox = createMessageOutbox({ config, db, log: app.log });
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 423: ErrorBodySchema, 429: ErrorBodySchema };
  /** The options of a sign-in route: who may call it, its summary, request and answer, its rate limit, or an error body. */
  const route = routeOptions(['auth'], errors);
  /** The options of a route of a signed-in session, which fails only without one. */
  const sessionRoute = routeOptions(['auth'], { 401: ErrorBodySchema });
  const PUBLIC = { public: true } as const;
  const SESSION = { session: true } as const;

  app.post(
    '/user/login',
    route(PUBLIC, 'Sign in: a session, or a two-step challenge', { body: LoginBody }, Type.Union([LoginSuccessSchema, TwoStepChallengeSchema]), { rateLimit: limitBy('loginAccount', 20) }),
    (request) => login(db, config, request.body, clientMeta(request)),
  );

  app.post(
    '/user/AuthorizationCode/send',
    route(PUBLIC, 'Send the two-step code by the chosen method', { body: SendCodeBody }, Type.Object({ method: Type.String(), sentTo: Type.Union([Type.String(), Type.Null()]) }), {
      rateLimit: limitBy('challengeId', 5),
    }),
    (request) => sendChallengeCode(db, outbox, request.body, clientMeta(request)),
  );

  app.post(
    '/user/AuthorizationCode',
    route(PUBLIC, 'Check the two-step code and open the session', { body: AuthorizationCodeBody }, LoginSuccessSchema, { rateLimit: limitBy('challengeId', 10) }),
    (request) => verifyChallenge(db, config, request.body, clientMeta(request)),
  );

  app.post('/user/logout', sessionRoute(SESSION, 'End this session', {}, OkSchema), async (request) => {
    await logout(db, requireUser(request));
    return { ok: true as const };
  });

  app.post('/user/logoutAll', sessionRoute(SESSION, 'Sign out of every session', {}, Type.Object({ ended: Type.Number() })), async (request) => ({
    ended: await logoutEverywhere(db, requireUser(request)),
  }));
};
