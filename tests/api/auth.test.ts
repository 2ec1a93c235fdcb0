import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { TOTP, Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildTestApp, createUserAccount, injectAs, json, signIn, TEST_USER_PASSWORD, type TestApp } from '../helpers/app.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

interface LoginOk {
  token: string;
  expiresAt: string;
  user: { uid: number; loginAccount: string; displayName: string; language: string };
  trustedBrowserToken?: string;
}
interface Challenge {
  twoStep: { challengeId: string; methods: string[] };
}
interface ErrorAnswer {
  code: string;
  message: string;
  params?: Record<string, string>;
  details?: Array<{ field: string; code: string; message: string }>;
}

function totpNow(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe('sign-in and sessions', () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await buildTestApp({}, { logger: { level: 'trace', stream } });
  });
  afterAll(() => t.close());

  const login = (loginAccount: string, password: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount, password, ...extra } });

  it('answers a session with a 256-bit opaque token, its end and the user', async () => {
    const response = await login(ADMIN.loginAccount, ADMIN.password);
    expect(response.statusCode).toBe(200);
    const body = json<LoginOk>(response);
    expect(Buffer.from(body.token, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(new Date(body.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(body.user).toEqual({ uid: expect.any(Number), loginAccount: 'admin', displayName: 'Administrator', language: 'en' });
  });

  it('stores only the hash of the token', async () => {
    const token = await signIn(t.app);
    const rows = await t.database.db.selectFrom('user_session').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const unknown = await login('nobody-here', 'Wrong!Passw0rd');
    const wrong = await login(ADMIN.loginAccount, 'Wrong!Passw0rd');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(json(unknown)).toEqual(json(wrong));
    expect(json<ErrorAnswer>(wrong).code).toBe('AUTH_BAD_CREDENTIALS');
    await t.database.db.updateTable('app_user').set({ failed_logins: 0 }).execute();
  });

  it('accepts the bearer header and refuses a cookie alone', async () => {
    const token = await signIn(t.app);
    const withHeader = await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' });
    expect(withHeader.statusCode).toBe(200);
    const cookieOnly = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: { cookie: `token=${token}` } });
    expect(cookieOnly.statusCode).toBe(401);
    expect(json<ErrorAnswer>(cookieOnly).code).toBe('UNAUTHENTICATED');
  });

  it('ends the session on logout', async () => {
    const token = await signIn(t.app);
    expect((await injectAs(t.app, token, { method: 'POST', url: '/api/user/logout' })).statusCode).toBe(200);
    const after = await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' });
    expect(after.statusCode).toBe(401);
  });

  it('signs out of every session', async () => {
    const first = await signIn(t.app);
    const second = await signIn(t.app);
    const response = await injectAs(t.app, first, { method: 'POST', url: '/api/user/logoutAll' });
    expect(response.statusCode).toBe(200);
    expect(json<{ ended: number }>(response).ended).toBeGreaterThanOrEqual(2);
    for (const token of [first, second]) expect((await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' })).statusCode).toBe(401);
  });

  it('refuses an expired session', async () => {
    const token = await signIn(t.app);
    await t.database.db.updateTable('user_session').set({ expires_at: new Date(Date.now() - 1000) }).where('revoked_at', 'is', null).execute();
    expect((await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' })).statusCode).toBe(401);
  });

  it('saves the language by name or numeric code', async () => {
    const token = await signIn(t.app);
    const byCode = await injectAs(t.app, token, { method: 'PUT', url: '/api/user/defaultLang', payload: { language: 5 } });
    expect(json(byCode)).toEqual({ language: 'jp' });
    const status = json<{ user: { language: string } }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' }));
    expect(status.user.language).toBe('jp');
    // Without an explicit language header, errors now come in the user's language.
    const error = await injectAs(t.app, token, { method: 'PUT', url: '/api/user/defaultLang', payload: { language: 'xx' } });
    expect(error.statusCode).toBe(400);
    expect(json<ErrorAnswer>(error).message).not.toBe('Some fields are not valid.');
    await injectAs(t.app, token, { method: 'PUT', url: '/api/user/defaultLang', payload: { language: 'en' } });
  });

  it('never writes a token to the log', async () => {
    const response = await login(ADMIN.loginAccount, ADMIN.password);
    const { token } = json<LoginOk>(response);
    await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(token);
  });
});

describe('lockout and rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LOGIN_LOCK_MINUTES: '15' });
    await createUserAccount(t, { loginAccount: 'clerk' });
    await createUserAccount(t, { loginAccount: 'packer' });
  });
  afterAll(() => t.close());

  const login = (loginAccount: string, password: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount, password }, remoteAddress: ip });

  it('locks the account after ten wrong passwords in a row and refuses the right one until the lock ends', async () => {
    for (let i = 1; i <= 9; i++) {
      const response = await login('clerk', `Wrong!Passw0rd${i}`);
      expect(json<ErrorAnswer>(response).code, `attempt ${i}`).toBe('AUTH_BAD_CREDENTIALS');
    }
    const tenth = await login('clerk', 'Wrong!Passw0rd10');
    expect(tenth.statusCode).toBe(423);
    const body = json<ErrorAnswer>(tenth);
    expect(body.code).toBe('ACCOUNT_LOCKED');
    const until = new Date(body.params!.until);
    expect(until.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(until.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 5000);
    expect(body.message).toContain(body.params!.until);

    const right = await login('clerk', TEST_USER_PASSWORD);
    expect(right.statusCode).toBe(423);
    expect(json<ErrorAnswer>(right).code).toBe('ACCOUNT_LOCKED');

    // The lock ends: move the wrong attempts into the past as the clock would.
    await t.database.db.updateTable('login_failure').set({ at: new Date(Date.now() - 16 * 60_000) }).where('login_account', '=', 'clerk').execute();
    const afterLock = await login('clerk', TEST_USER_PASSWORD);
    expect(afterLock.statusCode).toBe(200);
    expect(json<LoginOk>(afterLock).token).toBeTruthy();
  });

  it('counts only wrong passwords in a row: a success starts the count again', async () => {
    for (let i = 0; i < 9; i++) await login('packer', 'Wrong!Passw0rd', '10.0.0.2');
    expect((await login('packer', TEST_USER_PASSWORD, '10.0.0.2')).statusCode).toBe(200);
    expect(json<ErrorAnswer>(await login('packer', 'Wrong!Passw0rd', '10.0.0.2')).code).toBe('AUTH_BAD_CREDENTIALS');
  });

  it('lets a stranger lock an account only for the stranger: the administrator still signs in from elsewhere', async () => {
    for (let i = 1; i <= 10; i++) await login('admin', `Wrong!Passw0rd${i}`, '10.6.6.6');
    const stranger = await login('admin', ADMIN.password, '10.6.6.6');
    expect(stranger.statusCode).toBe(423);
    expect(json<ErrorAnswer>(stranger).code).toBe('ACCOUNT_LOCKED');
    const owner = await login('admin', ADMIN.password, '10.1.1.1');
    expect(owner.statusCode).toBe(200);
    expect(json<LoginOk>(owner).token).toBeTruthy();
  });

  it('closes an account under attack from many addresses to new addresses only, never to the owner', async () => {
    expect((await login('packer', TEST_USER_PASSWORD, '10.2.2.2')).statusCode).toBe(200);
    for (let a = 0; a < 6; a++) for (let i = 0; i < 9; i++) await login('packer', 'Wrong!Passw0rd', `10.7.${a}.1`);
    const newcomer = await login('packer', TEST_USER_PASSWORD, '10.8.8.8');
    expect(json<ErrorAnswer>(newcomer).code).toBe('ACCOUNT_LOCKED');
    expect((await login('packer', TEST_USER_PASSWORD, '10.2.2.2')).statusCode).toBe(200);
  });

  it('stops password spraying: 40 account names from one address are not all tried', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`sprayed${i}`, 'Summer2026!', '10.9.9.9')));
    const tried = answers.filter((r) => r.statusCode === 401).length;
    const refused = answers.filter((r) => r.statusCode === 429).length;
    expect(tried).toBeLessThanOrEqual(20);
    expect(refused).toBeGreaterThanOrEqual(20);
    expect(tried + refused).toBe(40);
  });

  it('never turns a stranger spraying names from the owner address into a lock of the owner', async () => {
    await createUserAccount(t, { loginAccount: 'office-owner' });
    // The owner works from the office address; so does the attacker behind the same router.
    expect((await login('office-owner', TEST_USER_PASSWORD, '10.3.3.3')).statusCode).toBe(200);
    const spray: number[] = [];
    for (let i = 0; i < 22; i++) spray.push((await login(`random-${i}`, 'Wrong!Passw0rd', '10.3.3.3')).statusCode);
    expect(spray.filter((c) => c === 429).length).toBeGreaterThan(0);
    // The owner's right password from the address he signed in from is never refused, however often.
    const owner: number[] = [];
    for (let i = 0; i < 12; i++) owner.push((await login('office-owner', TEST_USER_PASSWORD, '10.3.3.3')).statusCode);
    expect(owner).toEqual(Array(12).fill(200));
  });

  it('does not count refused attempts: a right password from a new address waits for the limit, never for a lock', async () => {
    await createUserAccount(t, { loginAccount: 'newcomer' });
    for (let i = 0; i < 21; i++) await login(`sprayer-${i}`, 'Wrong!Passw0rd', '10.4.4.4');
    // A new address for this account: the address limit applies, the attempts it refuses count for nothing.
    const refused: number[] = [];
    for (let i = 0; i < 12; i++) refused.push((await login('newcomer', TEST_USER_PASSWORD, '10.4.4.4')).statusCode);
    expect(refused).toEqual(Array(12).fill(429));
    expect(await t.database.db.selectFrom('login_failure').select('id').where('login_account', '=', 'newcomer').execute()).toEqual([]);
    // The address's wrong sign-ins age out of its window (5 minutes): the right password gets in.
    await t.database.db.updateTable('login_failure').set({ at: new Date(Date.now() - 6 * 60_000) }).where('ip', '=', '10.4.4.4').execute();
    expect((await login('newcomer', TEST_USER_PASSWORD, '10.4.4.4')).statusCode).toBe(200);
  });

  it('lets the right password in from an address the account used even after ten wrong ones from there', async () => {
    await createUserAccount(t, { loginAccount: 'shared-desk' });
    expect((await login('shared-desk', TEST_USER_PASSWORD, '10.5.5.5')).statusCode).toBe(200);
    const wrong: number[] = [];
    for (let i = 1; i <= 10; i++) wrong.push((await login('shared-desk', `Wrong!Passw0rd${i}`, '10.5.5.5')).statusCode);
    expect(wrong.slice(0, 9)).toEqual(Array(9).fill(401));
    expect(wrong[9]).toBe(423);
    // A wrong password stays refused as locked; the right one opens the session.
    expect((await login('shared-desk', 'Wrong!Passw0rd11', '10.5.5.5')).statusCode).toBe(423);
    expect((await login('shared-desk', TEST_USER_PASSWORD, '10.5.5.5')).statusCode).toBe(200);
    // From an address the account never used, the lock stays.
    for (let i = 1; i <= 10; i++) await login('shared-desk', `Wrong!Passw0rd${i}`, '10.5.5.6');
    expect((await login('shared-desk', TEST_USER_PASSWORD, '10.5.5.6')).statusCode).toBe(423);
  });

  it('remembers the addresses an account signed in from after its sessions are purged', async () => {
    await createUserAccount(t, { loginAccount: 'long-gone' });
    expect((await login('long-gone', TEST_USER_PASSWORD, '10.11.0.1')).statusCode).toBe(200);
    const user = await t.database.db.selectFrom('app_user').select('id').where('login_account', '=', 'long-gone').executeTakeFirstOrThrow();
    await t.database.db.deleteFrom('user_session').where('user_id', '=', user.id).execute();
    for (let i = 1; i <= 10; i++) await login('long-gone', `Wrong!Passw0rd${i}`, '10.11.0.1');
    expect((await login('long-gone', TEST_USER_PASSWORD, '10.11.0.1')).statusCode).toBe(200);
  });

  it('limits sign-in per address and account name, existing or not, without touching other addresses', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await login('nobody', 'Wrong!Passw0rd', '10.0.0.9')).statusCode);
    expect(codes.slice(0, 9).every((c) => c === 401)).toBe(true);
    expect(codes.slice(9)).toEqual([423, 423, 423]);
    // Another address is not affected.
    expect((await login('nobody', 'Wrong!Passw0rd', '10.0.0.10')).statusCode).toBe(401);
  });
});

describe('passwords', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['Sh0rt!x', 'PASSWORD_TOO_SHORT'],
    [`${'Aa1!'.repeat(16)}x`, 'PASSWORD_TOO_LONG'],
    ['NOLOWER123!', 'PASSWORD_NO_LOWERCASE'],
    ['noupper123!', 'PASSWORD_NO_UPPERCASE'],
    ['NoDigitsHere!', 'PASSWORD_NO_DIGIT'],
    ['NoSymbol1234', 'PASSWORD_NO_SYMBOL'],
  ])('refuses %s with %s', async (password, code) => {
    const token = await createUserAccount(t, { loginAccount: `p${Math.random().toString(36).slice(2, 8)}` }).then((u) => u.token);
    const response = await injectAs(t.app, token, {
      method: 'POST',
      url: '/api/user/changePwd',
      payload: { oldPassword: TEST_USER_PASSWORD, newPassword: password, confirmPassword: password },
    });
    expect(response.statusCode).toBe(400);
    const body = json<ErrorAnswer>(response);
    expect(body.code).toBe('PASSWORD_POLICY');
    expect(body.details?.map((d) => d.code)).toEqual([code]);
    expect(body.details?.[0].message).toBeTruthy();
    expect(body.details?.[0].message).not.toBe(body.message);
  });

  it('reports every broken rule at once', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'many-rules' });
    const response = await injectAs(t.app, token, { method: 'POST', url: '/api/user/changePwd', payload: { oldPassword: TEST_USER_PASSWORD, newPassword: 'abc', confirmPassword: 'abc' } });
    expect(json<ErrorAnswer>(response).details?.map((d) => d.code)).toEqual(['PASSWORD_TOO_SHORT', 'PASSWORD_NO_UPPERCASE', 'PASSWORD_NO_DIGIT', 'PASSWORD_NO_SYMBOL']);
  });

  it('refuses a wrong old password, a mismatch and a new password equal to the old, each with its own code', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'changer' });
    const change = (payload: Record<string, string>) => injectAs(t.app, token, { method: 'POST', url: '/api/user/changePwd', payload });
    const wrongOld = await change({ oldPassword: 'Not!MyPassw0rd', newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' });
    expect(json<ErrorAnswer>(wrongOld)).toMatchObject({ code: 'OLD_PASSWORD_WRONG' });
    const mismatch = await change({ oldPassword: TEST_USER_PASSWORD, newPassword: 'N3w!Password', confirmPassword: 'N3w!Passwore' });
    expect(json<ErrorAnswer>(mismatch)).toMatchObject({ code: 'PASSWORD_MISMATCH' });
    const same = await change({ oldPassword: TEST_USER_PASSWORD, newPassword: TEST_USER_PASSWORD, confirmPassword: TEST_USER_PASSWORD });
    expect(json<ErrorAnswer>(same)).toMatchObject({ code: 'PASSWORD_SAME_AS_OLD' });
    const messages = new Set([wrongOld, mismatch, same].map((r) => json<ErrorAnswer>(r).message));
    expect(messages.size).toBe(3);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'mover' });
    const other = await signIn(t.app, 'mover', TEST_USER_PASSWORD);
    const response = await injectAs(t.app, token, {
      method: 'POST',
      url: '/api/user/changePwd',
      payload: { oldPassword: TEST_USER_PASSWORD, newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' },
    });
    expect(response.statusCode).toBe(200);
    expect((await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' })).statusCode).toBe(200);
    expect((await injectAs(t.app, other, { method: 'GET', url: '/api/user/status' })).statusCode).toBe(401);
    await expect(signIn(t.app, 'mover', TEST_USER_PASSWORD)).rejects.toThrow();
    expect(await signIn(t.app, 'mover', 'N3w!Password')).toBeTruthy();
  });
});

describe('two-step verification, registration and reset over real SMTP and an HTTP SMS provider', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let smsServer: http.Server;
  const sms: Array<{ to: string; text: string }> = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    smsServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        sms.push(JSON.parse(body) as { to: string; text: string });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => smsServer.listen(0, '127.0.0.1', resolve));
    const smsUrl = `http://127.0.0.1:${(smsServer.address() as AddressInfo).port}/send`;
    t = await buildTestApp({ SMTP_URL: smtp.url, SMS_URL: smsUrl, TRUST_BROWSER_DAYS: '3' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await new Promise((resolve) => smsServer.close(resolve));
  });

  const post = (url: string, payload: unknown, token?: string) =>
    token ? injectAs(t.app, token, { method: 'POST', url, payload: payload as Record<string, unknown> }) : t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });

  it('registers with the e-mailed code, which works only once', async () => {
    const since = smtp.mails.length;
    const send = await post('/api/user/sendEmail', { email: 'new.user@example.com' });
    expect(send.statusCode).toBe(200);
    const code = await smtp.nextCodeFor('new.user@example.com', since);
    const wrong = await post('/api/user/signup', { loginAccount: 'newbie', email: 'new.user@example.com', code: code === '000000' ? '111111' : '000000', password: 'Str0ng!Pass', confirmPassword: 'Str0ng!Pass' });
    expect(json<ErrorAnswer>(wrong).code).toBe('CODE_INVALID');
    const weak = await post('/api/user/signup', { loginAccount: 'newbie', email: 'new.user@example.com', code, password: 'weak', confirmPassword: 'weak' });
    expect(json<ErrorAnswer>(weak).code).toBe('PASSWORD_POLICY');
    const ok = await post('/api/user/signup', { loginAccount: 'newbie', email: 'new.user@example.com', code, password: 'Str0ng!Pass', confirmPassword: 'Str0ng!Pass' });
    expect(ok.statusCode).toBe(200);
    const again = await post('/api/user/signup', { loginAccount: 'newbie2', email: 'new.user@example.com', code, password: 'Str0ng!Pass', confirmPassword: 'Str0ng!Pass' });
    expect(json<ErrorAnswer>(again).code).toBe('USER_EXISTS');

    // A new account has no rights yet: the shell shows "contact an administrator".
    const token = await signIn(t.app, 'newbie', 'Str0ng!Pass');
    const status = json<{ hasRights: boolean; project: unknown }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/status' }));
    expect(status.hasRights).toBe(false);
    expect(status.project).toBeNull();
    expect(json<{ items: unknown[] }>(await injectAs(t.app, token, { method: 'GET', url: '/api/user/menu' })).items).toEqual([]);
  });

  it('refuses an invalid e-mail address', async () => {
    const response = await post('/api/user/sendEmail', { email: 'not-an-address' });
    expect(json<ErrorAnswer>(response).code).toBe('EMAIL_INVALID');
  });

  it('sends the login account and a reset code, and resets the password with it once', async () => {
    await createUserAccount(t, { loginAccount: 'forgetful', email: 'forgetful@example.com' });
    const since = smtp.mails.length;
    expect((await post('/api/user/forgot', { email: 'forgetful@example.com' })).statusCode).toBe(200);
    const mail = await smtp.nextMailTo('forgetful@example.com', since);
    expect(mail.text).toContain('forgetful');
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    // An unknown address gets the same answer and no mail.
    expect((await post('/api/user/forgot', { email: 'nobody@example.com' })).statusCode).toBe(200);
    const mismatch = await post('/api/user/resetPassword', { email: 'forgetful@example.com', code, newPassword: 'Fr3sh!Pass', confirmPassword: 'Fr3sh!Pasx' });
    expect(json<ErrorAnswer>(mismatch).code).toBe('PASSWORD_MISMATCH');
    const reset = await post('/api/user/resetPassword', { email: 'forgetful@example.com', code, newPassword: 'Fr3sh!Pass', confirmPassword: 'Fr3sh!Pass' });
    expect(reset.statusCode).toBe(200);
    expect(await signIn(t.app, 'forgetful', 'Fr3sh!Pass')).toBeTruthy();
    const reuse = await post('/api/user/resetPassword', { email: 'forgetful@example.com', code, newPassword: 'Oth3r!Pass', confirmPassword: 'Oth3r!Pass' });
    expect(json<ErrorAnswer>(reuse).code).toBe('CODE_INVALID');
    expect(smtp.mails.slice(since).some((m) => m.to.includes('nobody@example.com'))).toBe(false);
  });

  it('enrols the authenticator app only after a code of the new secret checks out', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'totper' });
    const setup = json<{ secret: string; uri: string }>(await post('/api/user/twoStep/totp/setup', {}, token));
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.uri).toContain(`secret=${setup.secret}`);
    const wrong = await post('/api/user/twoStep/totp/confirm', { code: totpNow(setup.secret, 10) }, token);
    expect(json<ErrorAnswer>(wrong).code).toBe('TOTP_SECRET_WRONG');
    const enrolCode = totpNow(setup.secret);
    const ok = await post('/api/user/twoStep/totp/confirm', { code: enrolCode }, token);
    expect(json<{ totp: boolean }>(ok).totp).toBe(true);

    const challenge = json<Challenge>(await post('/api/user/login', { loginAccount: 'totper', password: TEST_USER_PASSWORD }));
    expect(challenge.twoStep.methods).toEqual(['totp']);
    // The enrolment already used this code's time step: the same code cannot be replayed. It is the
    // very code sent at enrolment, not one computed again, which would belong to the next step when
    // the clock has crossed a 30 s boundary since.
    const replay = await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code: enrolCode });
    expect(json<ErrorAnswer>(replay).code).toBe('CODE_INVALID');
    const next = await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code: totpNow(setup.secret, 1), trustBrowser: true });
    expect(next.statusCode).toBe(200);
    const session = json<LoginOk>(next);
    expect(session.token).toBeTruthy();
    expect(session.trustedBrowserToken).toBeTruthy();

    // The challenge is spent.
    const reused = await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code: totpNow(setup.secret, 1) });
    expect(json<ErrorAnswer>(reused).code).toBe('CODE_INVALID');

    // The trusted browser signs in without a code, for TRUST_BROWSER_DAYS.
    const trusted = json<LoginOk>(await post('/api/user/login', { loginAccount: 'totper', password: TEST_USER_PASSWORD, trustedBrowserToken: session.trustedBrowserToken }));
    expect(trusted.token).toBeTruthy();
    const list = json<Array<{ id: number; expiresAt: string }>>(await injectAs(t.app, trusted.token, { method: 'GET', url: '/api/user/trustedBrowsers' }));
    expect(list).toHaveLength(1);
    const days = (new Date(list[0].expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThanOrEqual(3);

    // Revoked: the next sign-in asks again.
    expect((await post('/api/user/trustedBrowsers/revoke', { id: list[0].id }, trusted.token)).statusCode).toBe(200);
    const asked = json<Challenge>(await post('/api/user/login', { loginAccount: 'totper', password: TEST_USER_PASSWORD, trustedBrowserToken: session.trustedBrowserToken }));
    expect(asked.twoStep.challengeId).toBeTruthy();
  });

  it('sends an e-mail code that works once and only before it expires', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'mailer', email: 'mailer@example.com' });
    const on = await post('/api/user/twoStep', { method: 'email', enabled: true }, token);
    expect(json<{ email: boolean }>(on).email).toBe(true);
    const challenge = json<Challenge>(await post('/api/user/login', { loginAccount: 'mailer', password: TEST_USER_PASSWORD }));
    expect(challenge.twoStep.methods).toEqual(['email']);
    const since = smtp.mails.length;
    const sent = await post('/api/user/AuthorizationCode/send', { challengeId: challenge.twoStep.challengeId, method: 'email' });
    expect(json<{ sentTo: string }>(sent).sentTo).toBe('m***@example.com');
    const code = await smtp.nextCodeFor('mailer@example.com', since);

    await t.database.db.updateTable('two_step_challenge').set({ code_expires_at: new Date(Date.now() - 1000) }).where('method', '=', 'email').execute();
    const expired = await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code });
    expect(json<ErrorAnswer>(expired).code).toBe('CODE_INVALID');

    const since2 = smtp.mails.length;
    await post('/api/user/AuthorizationCode/send', { challengeId: challenge.twoStep.challengeId, method: 'email' });
    const fresh = await smtp.nextCodeFor('mailer@example.com', since2);
    const ok = await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code: fresh });
    expect(ok.statusCode).toBe(200);
    expect(json<LoginOk>(ok).trustedBrowserToken).toBeUndefined();
  });

  it('sends an SMS code through the HTTP provider', async () => {
    const { uid, token } = await createUserAccount(t, { loginAccount: 'texter' });
    await t.database.db.updateTable('app_user').set({ telephone: '+15550100' }).where('id', '=', uid).execute();
    expect(json<{ sms: boolean }>(await post('/api/user/twoStep', { method: 'sms', enabled: true }, token)).sms).toBe(true);
    const challenge = json<Challenge>(await post('/api/user/login', { loginAccount: 'texter', password: TEST_USER_PASSWORD }));
    expect(challenge.twoStep.methods).toEqual(['sms']);
    await post('/api/user/AuthorizationCode/send', { challengeId: challenge.twoStep.challengeId, method: 'sms' });
    const message = sms.find((m) => m.to === '+15550100');
    expect(message).toBeDefined();
    const code = /\b(\d{6})\b/.exec(message!.text)![1];
    expect((await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code })).statusCode).toBe(200);
  });

  it('kills a challenge after five wrong codes', async () => {
    const { token } = await createUserAccount(t, { loginAccount: 'guesser', email: 'guesser@example.com' });
    await post('/api/user/twoStep', { method: 'email', enabled: true }, token);
    const challenge = json<Challenge>(await post('/api/user/login', { loginAccount: 'guesser', password: TEST_USER_PASSWORD }));
    const since = smtp.mails.length;
    await post('/api/user/AuthorizationCode/send', { challengeId: challenge.twoStep.challengeId, method: 'email' });
    const code = await smtp.nextCodeFor('guesser@example.com', since);
    const wrongCode = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code: wrongCode });
    const right = await post('/api/user/AuthorizationCode', { challengeId: challenge.twoStep.challengeId, code });
    expect(json<ErrorAnswer>(right).code).toBe('CODE_INVALID');
  });
});

describe('delivery with nothing configured', () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await buildTestApp({}, { logger: { level: 'info', stream } });
  });
  afterAll(() => t.close());

  it('writes the code to the server log only, and keeps the message in the outbox with the code masked', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/user/sendEmail', payload: { email: 'local@example.com' } });
    expect(response.statusCode).toBe(200);
    const rows = await t.database.db.selectFrom('outbox_message').selectAll().where('recipient', '=', 'local@example.com').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: 'email', status: 'stored' });
    expect(rows[0].body).not.toMatch(/\d{6}/);
    expect(rows[0].body).toContain('******');
    const logged = logLines.find((line) => line.includes('local@example.com'));
    expect(logged).toMatch(/\b\d{6}\b/);
  });
});

describe('delivery that fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 9 of the loopback: the SMTP connection is refused.
    t = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(() => t.close());

  it('keeps the undelivered message in the outbox with its error', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/user/sendEmail', payload: { email: 'lost@example.com' } });
    expect(response.statusCode).toBe(200);
    const rows = await t.database.db.selectFrom('outbox_message').selectAll().where('recipient', '=', 'lost@example.com').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].error).toBeTruthy();
  });
});
