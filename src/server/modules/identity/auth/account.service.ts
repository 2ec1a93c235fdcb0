import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import type { SignupAnswer, TotpSetup, TrustedBrowser, TwoStepSettings } from '../../../../common/identity-api.js';
import type { DB } from '../../../db/schema.js';
import type { SessionUser } from '../../../http/access.js';
import { translate } from '../../../http/i18n.js';
import type { MessageOutbox } from '../../outbox/index.js';
import { findUserByEmail, findUserById, findUserByLogin, insertUser, updatePasswordHash, updateTwoStep } from '../user/user.repository.js';
import type { ClientMeta } from './auth.service.js';
import { assertNewPassword } from './password-rules.js';
import { hashPassword, verifyPassword } from './password.js';
import { listTrustedBrowsers, revokeAllTrustedBrowsers, revokeTrustedBrowser, revokeUserSessions } from './session.repository.js';
import { addMinutes, randomDigits, sameDigest, sha256 } from './tokens.js';
import { matchTotp, newTotpSecret, totpUri } from './totp.js';
import { inTransaction } from '../../../db/transaction.js';
import { countCodeAttempt, findLiveCode, insertCode, markCodeUsed, retireCodes } from './verification-code.repository.js';

const EMAIL_CODE_MINUTES = 10;
const MAX_CODE_ATTEMPTS = 5;
// A practical check ("e-mail must be valid"); the mail server has the last word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LOGIN_PATTERN = /^[\p{L}\p{N}._@-]{3,50}$/u;

export function assertEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL_PATTERN.test(trimmed)) throw new AppError('EMAIL_INVALID', {}, [{ field: 'email', code: 'EMAIL_INVALID' }]);
  return trimmed;
}

/** Account changes are the account holder's own: an administrator simulating a user cannot make them. */
function assertOwnSession(user: SessionUser): void {
  if (user.simulatedBy !== null) throw new AppError('NOT_WHILE_SIMULATING');
}

async function issueCode(db: Kysely<DB>, purpose: 'register' | 'reset', email: string, userId: number | null): Promise<string> {
  const code = randomDigits(6);
  await inTransaction(db, async (trx) => {
    // Only the newest code of an address is valid.
    await retireCodes(trx, purpose, email);
    await insertCode(trx, { purpose, email, userId, codeHash: sha256(code), expiresAt: addMinutes(new Date(), EMAIL_CODE_MINUTES) });
  });
  return code;
}

/**
 * Spends the live code of an address inside the caller's transaction; false when there is none or
 * it does not match (the caller then counts the attempt with `countWrongCode`, after rollback).
 */
async function spendCode(trx: Transaction<DB>, purpose: 'register' | 'reset', email: string, code: string): Promise<{ id: number; user_id: number | null } | undefined> {
  const row = await findLiveCode(trx, purpose, email, MAX_CODE_ATTEMPTS);
  if (!row || !sameDigest(row.code_hash, sha256(code.trim()))) return undefined;
  return (await markCodeUsed(trx, row.id)) ? row : undefined;
}

async function countWrongCode(db: Kysely<DB>, purpose: 'register' | 'reset', email: string): Promise<void> {
  await inTransaction(db, (trx) => countCodeAttempt(trx, purpose, email));
}

/** `POST /api/user/sendEmail`: the registration code for an address not yet in use. */
export async function sendRegistrationCode(db: Kysely<DB>, outbox: MessageOutbox, emailInput: string, meta: ClientMeta): Promise<void> {
  const email = assertEmail(emailInput);
  if (await findUserByEmail(db, email)) throw new AppError('USER_EXISTS', {}, [{ field: 'email', code: 'USER_EXISTS' }]);
  const code = await issueCode(db, 'register', email, null);
  await outbox.send({
    channel: 'email',
    to: email,
    subject: translate(meta.language, 'ui.auth.message.registerSubject'),
    text: translate(meta.language, 'ui.auth.message.registerText', { code, minutes: EMAIL_CODE_MINUTES }),
    secret: code,
  });
}

/** `POST /api/user/signup`: creates an account (without rights) once the e-mail code is right. */
export async function signup(
  db: Kysely<DB>,
  input: { loginAccount: string; displayName?: string; email: string; code: string; password: string; confirmPassword: string; language?: string },
): Promise<SignupAnswer> {
  const email = assertEmail(input.email);
  const loginAccount = input.loginAccount.trim();
  if (!LOGIN_PATTERN.test(loginAccount)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'loginAccount', code: 'VALIDATION_FAILED' }]);
  assertNewPassword(input.password, input.confirmPassword, 'password');
  const passwordHash = await hashPassword(input.password);
  const created = await inTransaction(db, async (trx) => {
    if (await findUserByLogin(trx, loginAccount)) throw new AppError('USER_EXISTS', {}, [{ field: 'loginAccount', code: 'USER_EXISTS' }]);
    if (await findUserByEmail(trx, email)) throw new AppError('USER_EXISTS', {}, [{ field: 'email', code: 'USER_EXISTS' }]);
    if (!(await spendCode(trx, 'register', email, input.code))) return undefined;
    return insertUser(trx, {
      login_account: loginAccount,
      display_name: input.displayName?.trim() || loginAccount,
      email,
      password_hash: passwordHash,
      ...(input.language ? { language: input.language } : {}),
      by: loginAccount,
    });
  });
  if (created === undefined) {
    await countWrongCode(db, 'register', email);
    throw new AppError('CODE_INVALID', {}, [{ field: 'code', code: 'CODE_INVALID' }]);
  }
  return { uid: created, loginAccount };
}

/**
 * `POST /api/user/forgot`: e-mails the account name and a reset code to the address. The answer is
 * the same whether or not the address belongs to an account, so it reveals no accounts.
 */
export async function forgotLogin(db: Kysely<DB>, outbox: MessageOutbox, emailInput: string, meta: ClientMeta, publicUrl: string | undefined): Promise<void> {
  const email = assertEmail(emailInput);
  const user = await findUserByEmail(db, email);
  if (!user?.enabled) return;
  const code = await issueCode(db, 'reset', user.email!, user.id);
  // The code travels only in the mail's text, never in a link (tokens never appear in URLs).
  const link = publicUrl ? `${publicUrl.replace(/\/$/, '')}/#/forgot` : '';
  await outbox.send({
    channel: 'email',
    to: user.email!,
    subject: translate(meta.language, 'ui.auth.message.forgotSubject'),
    text: translate(meta.language, 'ui.auth.message.forgotText', { account: user.login_account, code, minutes: EMAIL_CODE_MINUTES, link }),
    secret: code,
  });
}

/** `POST /api/user/resetPassword`: a new password with the e-mailed code; ends every session. */
export async function resetPassword(db: Kysely<DB>, input: { email: string; code: string; newPassword: string; confirmPassword: string }): Promise<void> {
  const email = assertEmail(input.email);
  assertNewPassword(input.newPassword, input.confirmPassword);
  const passwordHash = await hashPassword(input.newPassword);
  const user = await findUserByEmail(db, email);
  // Same-as-old is checked before the code is spent, so the user can try another password.
  if (user && (await verifyPassword(user.password_hash, input.newPassword))) {
    throw new AppError('PASSWORD_SAME_AS_OLD', {}, [{ field: 'newPassword', code: 'PASSWORD_SAME_AS_OLD' }]);
  }
  const done = await inTransaction(db, async (trx) => {
    const spent = await spendCode(trx, 'reset', email, input.code);
    if (!spent?.user_id) return false;
    await updatePasswordHash(trx, spent.user_id, passwordHash, 'password reset');
    await revokeUserSessions(trx, spent.user_id);
    return true;
  });
  if (!done) {
    await countWrongCode(db, 'reset', email);
    throw new AppError('CODE_INVALID', {}, [{ field: 'code', code: 'CODE_INVALID' }]);
  }
}

/**
 * `POST /api/user/changePwd`: the old password must be right, the new one must
 * meet the policy, be typed twice the same and differ from the old. Other sessions end.
 */
export async function changePassword(db: Kysely<DB>, sessionUser: SessionUser, input: { oldPassword: string; newPassword: string; confirmPassword: string }): Promise<void> {
  assertOwnSession(sessionUser);
  const user = await findUserById(db, sessionUser.userId);
  if (!user) throw new AppError('UNAUTHENTICATED');
  if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
    throw new AppError('OLD_PASSWORD_WRONG', {}, [{ field: 'oldPassword', code: 'OLD_PASSWORD_WRONG' }]);
  }
  assertNewPassword(input.newPassword, input.confirmPassword);
  if (input.newPassword === input.oldPassword) throw new AppError('PASSWORD_SAME_AS_OLD', {}, [{ field: 'newPassword', code: 'PASSWORD_SAME_AS_OLD' }]);
  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(db, async (trx) => {
    await updatePasswordHash(trx, user.id, passwordHash, user.login_account);
    await revokeUserSessions(trx, user.id, sessionUser.sessionId);
  });
}

// --- two-step settings ---

export async function getTwoStepSettings(db: Kysely<DB>, sessionUser: SessionUser): Promise<TwoStepSettings> {
  const user = await findUserById(db, sessionUser.userId);
  if (!user) throw new AppError('UNAUTHENTICATED');
  return {
    email: user.two_step_email,
    sms: user.two_step_sms,
    totp: user.totp_secret !== null,
    emailAddress: user.email,
    telephone: user.telephone,
  };
}

/** Turns e-mail or SMS codes on or off, or the authenticator app off (on goes through enrolment). */
export async function setTwoStepMethod(db: Kysely<DB>, sessionUser: SessionUser, method: 'email' | 'sms' | 'totp', enabled: boolean): Promise<TwoStepSettings> {
  assertOwnSession(sessionUser);
  await inTransaction(db, async (trx) => {
    const user = await findUserById(trx, sessionUser.userId);
    if (!user) throw new AppError('UNAUTHENTICATED');
    const by = user.login_account;
    switch (method) {
      case 'email':
        if (enabled && !user.email) throw new AppError('TWO_STEP_METHOD_UNAVAILABLE');
        await updateTwoStep(trx, user.id, { two_step_email: enabled }, by);
        break;
      case 'sms':
        if (enabled && !user.telephone) throw new AppError('TWO_STEP_METHOD_UNAVAILABLE');
        await updateTwoStep(trx, user.id, { two_step_sms: enabled }, by);
        break;
      case 'totp':
        if (enabled) throw new AppError('BAD_REQUEST', { reason: 'enrol the authenticator app with a code first' });
        await updateTwoStep(trx, user.id, { totp_secret: null, totp_pending_secret: null, totp_last_counter: null }, by);
        break;
    }
  });
  return getTwoStepSettings(db, sessionUser);
}

/** Starts authenticator enrolment: a new secret, kept pending until a code from it is checked. */
export async function startTotpEnrolment(db: Kysely<DB>, sessionUser: SessionUser): Promise<TotpSetup> {
  assertOwnSession(sessionUser);
  const secret = newTotpSecret();
  await inTransaction(db, (trx) => updateTwoStep(trx, sessionUser.userId, { totp_pending_secret: secret }, sessionUser.loginAccount));
  return { secret, uri: totpUri(secret, sessionUser.loginAccount) };
}

/** Switches the authenticator on once a code from the pending secret is right (TOTP_SECRET_WRONG otherwise). */
export async function confirmTotpEnrolment(db: Kysely<DB>, sessionUser: SessionUser, code: string): Promise<TwoStepSettings> {
  assertOwnSession(sessionUser);
  await inTransaction(db, async (trx) => {
    const user = await findUserById(trx, sessionUser.userId);
    if (!user?.totp_pending_secret) throw new AppError('TOTP_SECRET_WRONG');
    const counter = matchTotp(user.totp_pending_secret, code.trim());
    if (counter === null) throw new AppError('TOTP_SECRET_WRONG', {}, [{ field: 'code', code: 'TOTP_SECRET_WRONG' }]);
    await updateTwoStep(
      trx,
      user.id,
      { totp_secret: user.totp_pending_secret, totp_pending_secret: null, totp_last_counter: counter },
      user.login_account,
    );
  });
  return getTwoStepSettings(db, sessionUser);
}

export async function trustedBrowsers(db: Kysely<DB>, sessionUser: SessionUser): Promise<TrustedBrowser[]> {
  const rows = await listTrustedBrowsers(db, sessionUser.userId);
  return rows.map((r) => ({
    id: r.id,
    label: r.label,
    ip: r.ip,
    createdAt: new Date(r.created_at).toISOString(),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
    expiresAt: new Date(r.expires_at).toISOString(),
  }));
}

export async function revokeTrust(db: Kysely<DB>, sessionUser: SessionUser, id: number | 'all'): Promise<void> {
  assertOwnSession(sessionUser);
  await inTransaction(db, async (trx) => {
    if (id === 'all') return revokeAllTrustedBrowsers(trx, sessionUser.userId);
    if (!(await revokeTrustedBrowser(trx, sessionUser.userId, id))) throw new AppError('NO_RECORD');
  });
}
