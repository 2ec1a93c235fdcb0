import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdSchema } from '../../http/schemas.js';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { createNotifier } from '../notify/notify.service.js';
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

/** Registration, forgot login, passwords, two-step settings, trusted browsers (issue 3, items 2 and 3). */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const notifier = createNotifier({ config: app.config, db, log: app.log });
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 429: ErrorBodySchema };
  const ok = { ok: true as const };

  app.post(
    '/user/sendEmail',
    {
      config: { access: { public: true }, rateLimit: limitBy('email', 5) },
      schema: { tags: ['account'], summary: 'E-mail a registration code', body: SendEmailBody, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await sendRegistrationCode(db, notifier, request.body.email, clientMeta(request));
      return ok;
    },
  );

  app.post(
    '/user/signup',
    {
      config: { access: { public: true }, rateLimit: limitBy('email', 10) },
      schema: {
        tags: ['account'],
        summary: 'Register with the e-mailed code',
        body: SignupBody,
        response: { 200: Type.Object({ uid: Type.Number(), loginAccount: Type.String() }), ...errors },
      },
    },
    (request) => signup(db, request.body),
  );

  app.post(
    '/user/forgot',
    {
      config: { access: { public: true }, rateLimit: limitBy('email', 5) },
      schema: { tags: ['account'], summary: 'E-mail the login account and a reset code', body: SendEmailBody, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await forgotLogin(db, notifier, request.body.email, clientMeta(request), app.config.publicUrl);
      return ok;
    },
  );

  app.post(
    '/user/resetPassword',
    {
      config: { access: { public: true }, rateLimit: limitBy('email', 10) },
      schema: { tags: ['account'], summary: 'Set a new password with the e-mailed code', body: ResetPasswordBody, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await resetPassword(db, request.body);
      return ok;
    },
  );

  app.post(
    '/user/changePwd',
    {
      config: { access: { session: true }, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (request) => `changePwd|${request.user?.userId ?? request.ip}` } },
      schema: { tags: ['account'], summary: 'Change the password', body: PasswordChangeBody, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await changePassword(db, requireUser(request), request.body);
      return ok;
    },
  );

  app.get(
    '/user/twoStep',
    { config: { access: { session: true } }, schema: { tags: ['account'], summary: 'Two-step settings', response: { 200: TwoStepSettingsSchema, ...errors } } },
    (request) => getTwoStepSettings(db, requireUser(request)),
  );

  app.post(
    '/user/twoStep',
    {
      config: { access: { session: true } },
      schema: { tags: ['account'], summary: 'Turn a two-step method on or off', body: TwoStepToggleBody, response: { 200: TwoStepSettingsSchema, ...errors } },
    },
    (request) => setTwoStepMethod(db, requireUser(request), request.body.method, request.body.enabled),
  );

  app.post(
    '/user/twoStep/totp/setup',
    { config: { access: { session: true } }, schema: { tags: ['account'], summary: 'Start authenticator enrolment', response: { 200: TotpSetupSchema, ...errors } } },
    (request) => startTotpEnrolment(db, requireUser(request)),
  );

  app.post(
    '/user/twoStep/totp/confirm',
    {
      config: { access: { session: true }, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (request) => `totpConfirm|${request.user?.userId ?? request.ip}` } },
      schema: { tags: ['account'], summary: 'Check a code of the new secret and switch the authenticator on', body: CodeBody, response: { 200: TwoStepSettingsSchema, ...errors } },
    },
    (request) => confirmTotpEnrolment(db, requireUser(request), request.body.code),
  );

  app.get(
    '/user/trustedBrowsers',
    { config: { access: { session: true } }, schema: { tags: ['account'], summary: 'Browsers trusted to skip two-step', response: { 200: Type.Array(TrustedBrowserSchema), ...errors } } },
    (request) => trustedBrowsers(db, requireUser(request)),
  );

  app.post(
    '/user/trustedBrowsers/revoke',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['account'],
        summary: 'Revoke one trusted browser, or all',
        body: Type.Object({ id: Type.Union([IdSchema, Type.Literal('all')]) }),
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await revokeTrust(db, requireUser(request), request.body.id);
      return ok;
    },
  );
};
