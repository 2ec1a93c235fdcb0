import { describe, expect, it } from 'vitest';
import { checkPasswordRules, passwordViolations } from '../../src/common/password-policy.js';
import { parseRight, rowsGrant } from '../../src/server/modules/identity/access/rights.js';
import { matchTotp, newTotpSecret } from '../../src/server/modules/identity/auth/totp.js';
import { TOTP, Secret } from 'otpauth';
import { AppError } from '../../src/common/errors.js';
import { assertInScope, scopeFilter } from '../../src/server/http/access-plugin.js';

describe('password policy', () => {
  it.each([
    ['Aa1!aaaa', []],
    ['Aa1!aaa', ['length']],
    [`Aa1!${'a'.repeat(60)}`, []],
    [`Aa1!${'a'.repeat(61)}`, ['length']],
    ['aaaaaaa1!', ['uppercase']],
    ['AAAAAAA1!', ['lowercase']],
    ['Aaaaaaaa!', ['digit']],
    ['Aaaaaaaa1', ['symbol']],
    ['Aaaa aaa1', ['symbol']],
    ['Ünïcödé1€', []],
  ])('%s breaks %j', (password, broken) => {
    expect(passwordViolations(password)).toEqual(broken);
  });

  it('ticks each rule on its own', () => {
    expect(checkPasswordRules('a')).toEqual({ length: false, lowercase: true, uppercase: false, digit: false, symbol: false });
  });
});

describe('rights', () => {
  const row = (module_code: string, sub_module_code: string | null, flags: Partial<Record<'can_view' | 'can_add' | 'can_edit' | 'can_delete', boolean>>) => ({
    module_code,
    sub_module_code,
    can_view: false,
    can_add: false,
    can_edit: false,
    can_delete: false,
    ...flags,
  });

  it('parses module, sub-module and action', () => {
    expect(parseRight('sku:edit')).toEqual({ module: 'sku', subModule: null, action: 'edit' });
    expect(parseRight('inventory.adjust:delete')).toEqual({ module: 'inventory', subModule: 'adjust', action: 'delete' });
    expect(() => parseRight('sku:fly')).toThrow();
  });

  it('counts any right on a module as viewing it', () => {
    expect(rowsGrant([row('sku', null, { can_delete: true })], parseRight('sku:view'))).toBe(true);
    expect(rowsGrant([row('sku', null, { can_view: true })], parseRight('sku:edit'))).toBe(false);
  });

  it('lets a sub-module row decide for its sub-module, the module row for the others', () => {
    const rows = [row('inv', null, { can_edit: true }), row('inv', 'adjust', { can_view: true })];
    expect(rowsGrant(rows, parseRight('inv.adjust:edit'))).toBe(false);
    expect(rowsGrant(rows, parseRight('inv.move:edit'))).toBe(true);
    expect(rowsGrant(rows, parseRight('other:view'))).toBe(false);
  });
});

describe('TOTP (RFC 6238)', () => {
  it('accepts the current code and one step either side, and answers its time step', () => {
    const secret = newTotpSecret();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(secret, totp.generate({ timestamp: now }), now)).toBe(step);
    expect(matchTotp(secret, totp.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(matchTotp(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(matchTotp(secret, totp.generate({ timestamp: now + 90_000 }), now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
  });

  it('matches the RFC 6238 test vector', () => {
    // RFC 6238 appendix B, SHA-1, T = 59 s: 94287082 (8 digits); the last 6 digits are our code.
    const secret = Secret.fromUTF8('12345678901234567890').base32;
    expect(matchTotp(secret, '287082', 59_000)).toBe(1);
  });
});

describe('session scope helpers', () => {
  const user = {
    sessionId: 1,
    userId: 2,
    loginAccount: 'u',
    displayName: 'u',
    isAdmin: false,
    organizationId: 10,
    projectId: 20,
    projectCode: 'PRJ1',
    warehouseId: 30,
    warehouseCode: 'WH1',
    simulatedBy: null,
  };

  it('filters by the session scope the route declares', () => {
    expect(scopeFilter(user, 'none')).toEqual({});
    expect(scopeFilter(user, 'organization')).toEqual({ organizationId: 10 });
    expect(scopeFilter(user, 'project')).toEqual({ projectId: 20 });
    expect(scopeFilter(user, 'warehouse')).toEqual({ projectId: 20, warehouseId: 30 });
    expect(() => scopeFilter({ ...user, warehouseId: null, warehouseCode: null }, 'warehouse')).toThrow(AppError);
  });

  it('hides a record of another project or warehouse', () => {
    const filter = scopeFilter(user, 'warehouse');
    expect(() => assertInScope(filter, { project_id: 20, warehouse_id: 30 })).not.toThrow();
    expect(() => assertInScope(filter, { project_id: 21, warehouse_id: 30 })).toThrow(expect.objectContaining({ code: 'NO_RECORD' }));
    expect(() => assertInScope(filter, { project_id: 20, warehouse_id: 31 }, { hide: false })).toThrow(expect.objectContaining({ code: 'OUT_OF_SCOPE' }));
    expect(() => assertInScope(filter, undefined)).toThrow(expect.objectContaining({ code: 'NO_RECORD' }));
  });
});
