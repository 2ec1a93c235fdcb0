import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdSchema } from '../../../http/schemas.js';
import { Type } from 'typebox';
import { requireUser } from '../../../http/access-plugin.js';
import { ErrorBodySchema } from '../../../http/schemas.js';
import { createMessageOutbox } from '../../outbox/index.js';
import {
  changePassword,
  confirmTotpEnrolment,
  forgotLogin,
  getTwoStepSettings,
  resetPassword,
  revokeTrust,
  sendRegistrationCode,
  setTwoStepMethod,
  signup,
  startTotpEnrolment,
  trustedBrowsers,
} from './account.service.js';
import {
  CodeBody,
  OkSchema,
  PasswordChangeBody,
  ResetPasswordBody,
  SendEmailBody,
  SignupBody,
  TotpSetupSchema,
  TrustedBrowserSchema,
  TwoStepSettingsSchema,
  TwoStepToggleBody,
} from './auth.schemas.js';
import { clientMeta } from './auth.routes.js';
import { limitBy } from './rate-limits.js';
import type { FastifyRequest } from 'fastify';
import { routeOptions } from '../../../http/route-options.js';

/** Registration, forgot login, passwords, two-step settings, trusted browsers. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const outbox = createMessageOutbox({ config: app.config, db, log: app.log });
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 429: ErrorBodySchema };
  const ok = { ok: true as const };
  /** The options of an account route: who may call it, its summary, request and answer, any other route config (a rate limit), or an error body. */
  const route = routeOptions(['account'], errors);
  const PUBLIC = { public: true } as const;
  const SESSION = { session: true } as const;
  /** At most 10 calls a minute of one signed-in user (or address) to the route named `name`. */
  const perUser = (name: string) => ({ max: 10, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => `${name}|${request.user?.userId ?? request.ip}` });

  app.post('/user/sendEmail', route(PUBLIC, 'E-mail a registration code', { body: SendEmailBody }, OkSchema, { rateLimit: limitBy('email', 5) }), async (request) => {
    await sendRegistrationCode(db, outbox, request.body.email, clientMeta(request));
    return ok;
  });

  app.post(
    '/user/signup',
    route(PUBLIC, 'Register with the e-mailed code', { body: SignupBody }, Type.Object({ uid: Type.Number(), loginAccount: Type.String() }), { rateLimit: limitBy('email', 10) }),
    (request) => signup(db, request.body),
  );

  app.post('/user/forgot', route(PUBLIC, 'E-mail the login account and a reset code', { body: SendEmailBody }, OkSchema, { rateLimit: limitBy('email', 5) }), async (request) => {
    await forgotLogin(db, outbox, request.body.email, clientMeta(request), app.config.publicUrl);
    return ok;
  });

  app.post('/user/resetPassword', route(PUBLIC, 'Set a new password with the e-mailed code', { body: ResetPasswordBody }, OkSchema, { rateLimit: limitBy('email', 10) }), async (request) => {
    await resetPassword(db, request.body);
    return ok;
  });

  app.post('/user/changePwd', route(SESSION, 'Change the password', { body: PasswordChangeBody }, OkSchema, { rateLimit: perUser('changePwd') }), async (request) => {
    await changePassword(db, requireUser(request), request.body);
    return ok;
  });

  app.get('/user/twoStep', route(SESSION, 'Two-step settings', {}, TwoStepSettingsSchema), (request) => getTwoStepSettings(db, requireUser(request)));

  app.post('/user/twoStep', route(SESSION, 'Turn a two-step method on or off', { body: TwoStepToggleBody }, TwoStepSettingsSchema), (request) =>
    setTwoStepMethod(db, requireUser(request), request.body.method, request.body.enabled),
  );

  app.post('/user/twoStep/totp/setup', route(SESSION, 'Start authenticator enrolment', {}, TotpSetupSchema), (request) => startTotpEnrolment(db, requireUser(request)));

  app.post(
    '/user/twoStep/totp/confirm',
    route(SESSION, 'Check a code of the new secret and switch the authenticator on', { body: CodeBody }, TwoStepSettingsSchema, { rateLimit: perUser('totpConfirm') }),
    (request) => confirmTotpEnrolment(db, requireUser(request), request.body.code),
  );

  app.get('/user/trustedBrowsers', route(SESSION, 'Browsers trusted to skip two-step', {}, Type.Array(TrustedBrowserSchema)), (request) => trustedBrowsers(db, requireUser(request)));

  app.post('/user/trustedBrowsers/revoke', route(SESSION, 'Revoke one trusted browser, or all', { body: Type.Object({ id: Type.Union([IdSchema, Type.Literal('all')]) }) }, OkSchema), async (request) => {
    await revokeTrust(db, requireUser(request), request.body.id);
    return ok;
  });
};
