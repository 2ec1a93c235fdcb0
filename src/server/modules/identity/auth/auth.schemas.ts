import { Type } from 'typebox';
import { IdSchema } from '../../../http/schemas.js';

export const LanguageSchema = Type.Union([
  Type.Literal('zh'),
  Type.Literal('zh_tw'),
  Type.Literal('en'),
  Type.Literal('kor'),
  Type.Literal('th'),
  Type.Literal('jp'),
]);
const MethodSchema = Type.Union([Type.Literal('sms'), Type.Literal('email'), Type.Literal('totp')]);

export const SessionUserInfoSchema = Type.Object({
  uid: Type.Number(),
  loginAccount: Type.String(),
  displayName: Type.String(),
  language: LanguageSchema,
});

export const LoginSuccessSchema = Type.Object({
  token: Type.String(),
  expiresAt: Type.String(),
  user: SessionUserInfoSchema,
  trustedBrowserToken: Type.Optional(Type.String()),
});

export const TwoStepChallengeSchema = Type.Object({
  twoStep: Type.Object({ challengeId: Type.String(), methods: Type.Array(MethodSchema) }),
});

export const LoginBody = Type.Object({
  loginAccount: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  trustedBrowserToken: Type.Optional(Type.String({ maxLength: 200 })),
});

export const SendCodeBody = Type.Object({
  challengeId: Type.String({ minLength: 1, maxLength: 200 }),
  method: MethodSchema,
});

export const AuthorizationCodeBody = Type.Object({
  challengeId: Type.String({ minLength: 1, maxLength: 200 }),
  code: Type.String({ minLength: 1, maxLength: 20 }),
  trustBrowser: Type.Optional(Type.Boolean()),
});

export const OkSchema = Type.Object({ ok: Type.Literal(true) });

export const PasswordChangeBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 200 }),
  newPassword: Type.String({ maxLength: 200 }),
  confirmPassword: Type.String({ maxLength: 200 }),
});

export const SendEmailBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
});

export const SignupBody = Type.Object({
  loginAccount: Type.String({ minLength: 1, maxLength: 100 }),
  displayName: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.String({ minLength: 1, maxLength: 254 }),
  code: Type.String({ minLength: 1, maxLength: 20 }),
  password: Type.String({ maxLength: 200 }),
  confirmPassword: Type.String({ maxLength: 200 }),
  language: Type.Optional(LanguageSchema),
});

export const ResetPasswordBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  code: Type.String({ minLength: 1, maxLength: 20 }),
  newPassword: Type.String({ maxLength: 200 }),
  confirmPassword: Type.String({ maxLength: 200 }),
});

export const TwoStepSettingsSchema = Type.Object({
  email: Type.Boolean(),
  sms: Type.Boolean(),
  totp: Type.Boolean(),
  emailAddress: Type.Union([Type.String(), Type.Null()]),
  telephone: Type.Union([Type.String(), Type.Null()]),
});

export const TwoStepToggleBody = Type.Object({
  method: Type.Union([Type.Literal('sms'), Type.Literal('email'), Type.Literal('totp')]),
  enabled: Type.Boolean(),
});

export const TotpSetupSchema = Type.Object({ secret: Type.String(), uri: Type.String() });

export const CodeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 20 }) });

export const TrustedBrowserSchema = Type.Object({
  id: Type.Number(),
  label: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.String(),
});

export const IdBody = Type.Object({ id: IdSchema });
