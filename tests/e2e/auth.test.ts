import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDUCED_MOTION, eventually, releaseBrowser, sharedBrowser, startE2eServer, type E2eServer } from '../helpers/browser.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

const ACCOUNT = 'ellen';
const EMAIL = 'ellen@example.com';
const PASSWORD = 'Wareh0use!Ellen';

/**
 * Sign-in in Chromium: register with the e-mailed code (read from a real local SMTP
 * server), sign in, turn on the authenticator app, sign out, sign in with a TOTP code and "trust
 * this browser", sign in again without a code, revoke the trust, and be asked again.
 */
describe('sign-in, two-step verification and trusted browsers in Chromium', () => {
  let smtp: TestSmtpServer;
  let server: E2eServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let secret = '';
  let lastStep = -1;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startE2eServer({ SMTP_URL: smtp.url });
    browser = await sharedBrowser();
    context = await browser.newContext(REDUCED_MOTION);
    page = await context.newPage();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
    await smtp?.close();
  });

  /** A code of a time step not used before (the server refuses a replayed step). */
  async function freshTotp(): Promise<string> {
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    for (;;) {
      const step = Math.floor(Date.now() / 30_000);
      for (const candidate of [step, step + 1]) {
        if (candidate > lastStep) {
          lastStep = candidate;
          return totp.generate({ timestamp: candidate * 30_000 + 1000 });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  async function submitPassword() {
    await page.goto(`${server.url}#/login`);
    await page.waitForSelector('form#login');
    await page.fill('#login_loginAccount', ACCOUNT);
    await page.fill('#login_password', PASSWORD);
    await page.click('form#login button[type="submit"]');
  }

  /** The user menu's item of exactly this label ("Sign out" is not "Sign out of every session"). */
  async function openUserMenuItem(text: string) {
    await page.click('[data-testid="user-menu"]');
    await page.locator('.ant-dropdown-menu-item', { hasText: new RegExp(`^\\s*${text}\\s*$`) }).click();
  }

  async function closeDialog() {
    await page.locator('.ant-modal-footer button', { hasText: 'Close' }).last().click();
    await page.locator('.ant-modal-wrap').last().waitFor({ state: 'hidden' });
  }

  async function signOut() {
    await openUserMenuItem('Sign out');
    // The question to sign out, once it has opened: its button is clicked when it stands still,
    // not while the popup zooms in.
    const confirm = page.locator('.wms-popup-confirm').filter({ hasText: 'Sign out now?' });
    await confirm.locator('.ant-modal').waitFor();
    await eventually(() => confirm.locator('.ant-modal').getAttribute('class')).not.toMatch(/zoom/);
    await confirm.locator('.wms-popup-ok').click();
    await page.waitForURL(/#\/login$/);
  }

  it('registers with the code from the e-mail, the password policy ticking as it is typed', async () => {
    await page.goto(`${server.url}#/sign`);
    await page.waitForSelector('form#sign');
    await page.fill('#sign_loginAccount', ACCOUNT);
    await page.fill('#sign_email', EMAIL);
    await page.click('[data-testid="sign-send-code"]');
    const code = await smtp.nextCodeFor(EMAIL);
    await page.fill('#sign_code', code);

    await page.fill('#sign_password', 'abc');
    const met = (rule: string) => page.locator(`[data-testid="password-policy"] [data-rule="${rule}"]`).getAttribute('data-met');
    expect(await met('lowercase')).toBe('true');
    expect(await met('uppercase')).toBe('false');
    expect(await met('length')).toBe('false');
    await page.fill('#sign_password', PASSWORD);
    for (const rule of ['length', 'lowercase', 'uppercase', 'digit', 'symbol']) expect(await met(rule), rule).toBe('true');
    await page.fill('#sign_confirmPassword', PASSWORD);
    await page.click('form#sign button[type="submit"]');
    await page.waitForSelector('[data-testid="sign-card"] .ant-result-success');
  });

  it('signs in and turns on the authenticator app with a code from the secret shown', async () => {
    await submitPassword();
    await page.waitForURL(/#\/page/);
    await openUserMenuItem('Two-step verification');
    await page.click('[data-testid="totp-enrol"]');
    await page.waitForSelector('[data-testid="totp-qr"]');
    secret = /[A-Z2-7]{16,}/.exec(await page.locator('[data-testid="totp-secret"]').innerText())![0];
    await page.fill('[data-testid="totp-code"]', await freshTotp());
    await page.click('[data-testid="totp-confirm"]');
    await page.waitForSelector('[data-testid="totp-disable"]');
    expect(await page.locator('[data-testid="totp-state"]').innerText()).toContain('is on');
    await closeDialog();

    // Change password: a wrong old password is answered next to its field.
    await openUserMenuItem('Change password');
    await page.waitForSelector('form#changePassword');
    await page.fill('#changePassword_oldPassword', 'Not!MyPassw0rd');
    await page.fill('#changePassword_newPassword', 'Another!Passw0rd');
    expect(await page.locator('[data-testid="password-policy"] [data-met="false"]').count()).toBe(0);
    await page.fill('#changePassword_confirmPassword', 'Another!Passw0rd');
    await page.locator('.ant-modal-footer button.ant-btn-primary').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'The original password is wrong.' }).waitFor();
    await page.locator('.ant-modal-footer button', { hasText: 'Cancel' }).click();
    await page.locator('.ant-modal-wrap').last().waitFor({ state: 'hidden' });
    await signOut();
  });

  it('asks for the code, and with "trust this browser" the next sign-in needs none', async () => {
    await submitPassword();
    await page.waitForSelector('[data-testid="two-step-card"]');
    await page.fill('#twoStep_code', await freshTotp());
    await page.check('#twoStep_trustBrowser');
    await page.click('form#twoStep button[type="submit"]');
    await page.waitForURL(/#\/page/);
    await signOut();

    await submitPassword();
    await page.waitForURL(/#\/page/);
    expect(await page.locator('[data-testid="two-step-card"]').count()).toBe(0);
  });

  it('asks again once the trust is revoked', async () => {
    await openUserMenuItem('Trusted browsers');
    const revoke = page.locator('[data-testid^="trusted-revoke-"]:not([data-testid="trusted-revoke-all"])');
    await revoke.first().waitFor();
    expect(await revoke.count()).toBe(1);
    await revoke.first().click();
    await page.waitForSelector('[data-testid="trusted-browsers"] .ant-empty, [data-testid="trusted-browsers"] .ant-table-placeholder');
    await closeDialog();
    await signOut();

    await submitPassword();
    await page.waitForSelector('[data-testid="two-step-card"]');
    expect(page.url()).toMatch(/#\/login$/);
  });
});
