import { Secret, TOTP } from 'otpauth';

/** RFC 6238 with the parameters every authenticator app understands: SHA-1, 6 digits, 30 s. */
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: 'WMS', label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The `otpauth://` URI the QR code carries for enrolment. */
export function totpUri(secret: string, label: string): string {
  return totpFor(secret, label).toString();
}

/**
 * The time step a code belongs to, within one step either side (clock drift), or null when the
 * code is wrong. The caller records the step so that a code is used only once.
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secret, 'check');
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}
