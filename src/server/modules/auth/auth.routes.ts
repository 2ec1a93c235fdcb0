import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { createNotifier } from '../notify/notify.service.js';
import { login, logout, logoutEverywhere, sendChallengeCode, verifyChallenge, type ClientMeta } from './auth.service.js';
import { AuthorizationCodeBody, LoginBody, LoginSuccessSchema, OkSchema, SendCodeBody, TwoStepChallengeSchema } from './auth.schemas.js';
import { limitBy } from './rate-limits.js';

export function clientMeta(request: FastifyRequest): ClientMeta {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent : null, language: request.language };
}

/** Sign-in, two-step challenge, sign-out (issue 3, item 1; spec section 7 "User and auth"). */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const config = app.config;
  const notifier = createNotifier({ config, db, log: app.log });
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 423: ErrorBodySchema, 429: ErrorBodySchema };

  app.post(
    '/user/login',
    {
      config: { access: { public: true }, rateLimit: limitBy('loginAccount', 20) },
      schema: {
        tags: ['auth'],
        summary: 'Sign in: a session, or a two-step challenge',
        body: LoginBody,
        response: { 200: Type.Union([LoginSuccessSchema, TwoStepChallengeSchema]), ...errors },
      },
    },
    (request) => login(db, config, request.body, clientMeta(request)),
  );

  app.post(
    '/user/AuthorizationCode/send',
    {
      config: { access: { public: true }, rateLimit: limitBy('challengeId', 5) },
      schema: {
        tags: ['auth'],
        summary: 'Send the two-step code by the chosen method',
        body: SendCodeBody,
        response: { 200: Type.Object({ method: Type.String(), sentTo: Type.Union([Type.String(), Type.Null()]) }), ...errors },
      },
    },
    (request) => sendChallengeCode(db, notifier, request.body, clientMeta(request)),
  );

  app.post(
    '/user/AuthorizationCode',
    {
      config: { access: { public: true }, rateLimit: limitBy('challengeId', 10) },
      schema: {
        tags: ['auth'],
        summary: 'Check the two-step code and open the session',
        body: AuthorizationCodeBody,
        response: { 200: LoginSuccessSchema, ...errors },
      },
    },
    (request) => verifyChallenge(db, config, request.body, clientMeta(request)),
  );

  app.post(
    '/user/logout',
    { config: { access: { session: true } }, schema: { tags: ['auth'], summary: 'End this session', response: { 200: OkSchema, 401: ErrorBodySchema } } },
    async (request) => {
      await logout(db, requireUser(request));
      return { ok: true as const };
    },
  );

  app.post(
    '/user/logoutAll',
    {
      config: { access: { session: true } },
      schema: { tags: ['auth'], summary: 'Sign out of every session', response: { 200: Type.Object({ ended: Type.Number() }), 401: ErrorBodySchema } },
    },
    async (request) => ({ ended: await logoutEverywhere(db, requireUser(request)) }),
  );
};
