import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import type { LoginAnswer, LoginSuccess, TwoStepMethod } from '../../../../common/api-types.js';
import type { CodeSent } from '../../../../common/identity-api.js';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../../common/languages.js';
import type { AppConfig } from '../../../config.js';
import type { DB } from '../../../db/schema.js';
import type { SessionUser } from '../../../http/access.js';
import { chooseInitialScope } from '../access/access.service.js';
import type { MessageOutbox } from '../../outbox/index.js';
import { translate } from '../../../http/i18n.js';
import type { Language } from '../../../../common/languages.js';
import { claimTotpCounter, findUserById, findUserByLogin, type UserRow } from '../user/user.repository.js';
import { beginSignIn, clearSignInFailures, forgetSignInAttempt, PAIR_FAILURES, rememberAddress } from './sign-in-guard.js';
import { hashPassword, verifyPassword } from './password.js';
import {
  findLiveTrustedBrowser,
  insertSession,
  insertTrustedBrowser,
  purgeExpired,
  revokeSession,
  revokeUserSessions,
  touchTrustedBrowser,
} from './session.repository.js';
import { addDays, addMinutes, randomDigits, randomToken, sameDigest, sha256 } from './tokens.js';
import { matchTotp } from './totp.js';
import { inTransaction } from '../../../db/transaction.js';
import { countChallengeAttempt, findLiveChallengeByHash, insertChallenge, setChallengeCode, spendChallenge } from './challenge.repository.js';

/** A two-step challenge lives this long; a code sent for it, shorter. */
const CHALLENGE_MINUTES = 10;
const CODE_MINUTES = 5;
/** Wrong codes after which a challenge is dead and the password must be given again. */
const MAX_CODE_ATTEMPTS = 5;

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
  language: Language;
}

export type AuthConfig = Pick<AppConfig, 'sessionDays' | 'trustBrowserDays' | 'loginLockMinutes'>;

// Verifying against a real hash when the account does not exist takes as long as a wrong password,
// so the answer's timing does not tell which accounts exist.
let dummyHash: Promise<string> | undefined;
function timingDummy(): Promise<string> {
  dummyHash ??= hashPassword(randomToken());
  return dummyHash;
}

/** The two-step methods a user has switched on and can receive. */
export function twoStepMethods(user: UserRow): TwoStepMethod[] {
  const methods: TwoStepMethod[] = [];
  if (user.totp_secret) methods.push('totp');
  if (user.two_step_email && user.email) methods.push('email');
  if (user.two_step_sms && user.telephone) methods.push('sms');
  return methods;
}

function lockedError(until: Date): AppError {
  return new AppError('ACCOUNT_LOCKED', { until: until.toISOString() });
}

/** `POST /api/user/login`: a session, or a two-step challenge when the account asks for one. */
export async function login(
  db: Kysely<DB>,
  config: AuthConfig,
  input: { loginAccount: string; password: string; trustedBrowserToken?: string },
  meta: ClientMeta,
): Promise<LoginAnswer> {
  const ip = meta.ip ?? 'unknown';
  const user = await findUserByLogin(db, input.loginAccount);
  const attempt = await beginSignIn(db, ip, input.loginAccount, user?.id, config.loginLockMinutes);
  const failed = (): never => {
    // From an address the account knows, a refusal of the limits is answered to a wrong password only.
    if (attempt.refusal) throw attempt.refusal;
    // The tenth wrong password in a row locks the account for this address.
    if (attempt.wrongInARow >= PAIR_FAILURES) throw lockedError(new Date(Date.now() + config.loginLockMinutes * 60_000));
    throw new AppError('AUTH_BAD_CREDENTIALS');
  };
  if (!user) {
    await verifyPassword(await timingDummy(), input.password);
    return failed();
  }
  // An administrator's lock (the user list's unlock) still applies to every address.
  if (user.locked_until && new Date(user.locked_until) > new Date()) {
    await inTransaction(db, (trx) => forgetSignInAttempt(trx, attempt.failureId));
    throw lockedError(new Date(user.locked_until));
  }
  if (!(await verifyPassword(user.password_hash, input.password))) return failed();
  if (!user.enabled) throw new AppError('ACCOUNT_DISABLED');
  await inTransaction(db, (trx) => clearSignInFailures(trx, ip, input.loginAccount));

  const methods = twoStepMethods(user);
  if (methods.length) {
    const trusted = input.trustedBrowserToken ? await findLiveTrustedBrowser(db, sha256(input.trustedBrowserToken), user.id) : undefined;
    if (!trusted) {
      const challengeId = randomToken();
      await inTransaction(db, (trx) => insertChallenge(trx, sha256(challengeId), user.id, addMinutes(new Date(), CHALLENGE_MINUTES)));
      return { twoStep: { challengeId, methods } };
    }
    await inTransaction(db, (trx) => touchTrustedBrowser(trx, trusted.id));
  }
  return inTransaction(db, (trx) => openSession(trx, config, user, meta));
}

/** Opens a session for a user whose identity is proven, in its initial scope. */
async function openSession(trx: Transaction<DB>, config: AuthConfig, user: UserRow, meta: ClientMeta): Promise<LoginSuccess> {
  await purgeExpired(trx);
  const token = randomToken();
  const expiresAt = addDays(new Date(), config.sessionDays);
  const scope = await chooseInitialScope(trx, user);
  await insertSession(trx, {
    tokenHash: sha256(token),
    userId: user.id,
    projectId: scope.projectId,
    warehouseId: scope.warehouseId,
    expiresAt,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
  });
  await rememberAddress(trx, user.id, meta.ip);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: {
      uid: user.id,
      loginAccount: user.login_account,
      displayName: user.display_name,
      language: isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
    },
  };
}

async function findLiveChallenge(db: Kysely<DB>, challengeId: string) {
  return findLiveChallengeByHash(db, sha256(challengeId), MAX_CODE_ATTEMPTS);
}

/** `POST /api/user/AuthorizationCode/send`: sends a fresh code by e-mail or SMS for a challenge. */
export async function sendChallengeCode(
  db: Kysely<DB>,
  outbox: MessageOutbox,
  input: { challengeId: string; method: TwoStepMethod },
  meta: ClientMeta,
): Promise<CodeSent> {
  const challenge = await findLiveChallenge(db, input.challengeId);
  if (!challenge) throw new AppError('CODE_INVALID');
  const user = await findUserById(db, challenge.user_id);
  if (!user || !twoStepMethods(user).includes(input.method)) throw new AppError('BAD_REQUEST', { reason: 'method not available' });
  if (input.method === 'totp') {
    await inTransaction(db, (trx) => setChallengeCode(trx, challenge.id, { method: 'totp', code_hash: null, code_expires_at: null }));
    return { method: 'totp', sentTo: null };
  }
  const code = randomDigits(6);
  await inTransaction(db, (trx) =>
    setChallengeCode(trx, challenge.id, { method: input.method, code_hash: sha256(code), code_expires_at: addMinutes(new Date(), CODE_MINUTES) }),
  );
  const text = translate(meta.language, 'ui.auth.message.twoStepText', { code, minutes: CODE_MINUTES });
  if (input.method === 'email') {
    await outbox.send({ channel: 'email', to: user.email!, subject: translate(meta.language, 'ui.auth.message.twoStepSubject'), text, secret: code });
    return { method: 'email', sentTo: maskEmail(user.email!) };
  }
  await outbox.send({ channel: 'sms', to: user.telephone!, text, secret: code });
  return { method: 'sms', sentTo: maskPhone(user.telephone!) };
}

/**
 * `POST /api/user/AuthorizationCode`: checks the code of a challenge and opens the session; with
 * `trustBrowser`, also a trusted-browser token valid for config.trustBrowserDays.
 * Codes are single-use: the challenge is spent, and a TOTP time step cannot be used twice.
 */
export async function verifyChallenge(
  db: Kysely<DB>,
  config: AuthConfig,
  input: { challengeId: string; code: string; trustBrowser?: boolean },
  meta: ClientMeta,
): Promise<LoginSuccess> {
  const code = input.code.trim();
  const outcome = await inTransaction(db, async (trx) => {
    const challenge = await findLiveChallenge(trx, input.challengeId);
    if (!challenge) return { ok: false as const };
    const user = await findUserById(trx, challenge.user_id);
    if (!user?.enabled) return { ok: false as const };
    let valid = false;
    if (challenge.method === 'email' || challenge.method === 'sms') {
      valid =
        challenge.code_hash !== null &&
        challenge.code_expires_at !== null &&
        new Date(challenge.code_expires_at) > new Date() &&
        sameDigest(challenge.code_hash, sha256(code));
    } else if (user.totp_secret) {
      const counter = matchTotp(user.totp_secret, code);
      valid = counter !== null && (await claimTotpCounter(trx, user.id, counter));
    }
    if (!valid) {
      await countChallengeAttempt(trx, challenge.id);
      return { ok: false as const };
    }
    // Spent at once: a second use of the same challenge finds nothing.
    if (!(await spendChallenge(trx, challenge.id))) return { ok: false as const };
    const session = await openSession(trx, config, user, meta);
    if (input.trustBrowser) {
      const trustedBrowserToken = randomToken();
      await insertTrustedBrowser(trx, {
        tokenHash: sha256(trustedBrowserToken),
        userId: user.id,
        label: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip,
        expiresAt: addDays(new Date(), config.trustBrowserDays),
      });
      return { ok: true as const, session: { ...session, trustedBrowserToken } };
    }
    return { ok: true as const, session };
  });
  if (!outcome.ok) throw new AppError('CODE_INVALID');
  return outcome.session;
}

export async function logout(db: Kysely<DB>, user: SessionUser): Promise<void> {
  await inTransaction(db, (trx) => revokeSession(trx, user.sessionId));
}

/** Signs the account out of every session, this one included. */
export async function logoutEverywhere(db: Kysely<DB>, user: SessionUser): Promise<number> {
  const ownerId = user.simulatedBy ?? user.userId;
  return inTransaction(db, (trx) => revokeUserSessions(trx, ownerId));
}

export function maskEmail(email: string): string {
  const [name, domain] = email.split('@');
  return `${name.slice(0, 1)}***@${domain ?? ''}`;
}

export function maskPhone(phone: string): string {
  return `***${phone.slice(-3)}`;
}
