import { createHash, randomBytes } from 'node:crypto';
import { LAUNDRY_KEY_PATTERN } from '../../../common/laundry-api.js';

/**
 * Device keys and customer codes. A key is 24 random bytes (192 bits), so a plain SHA-256 of it is
 * enough to store: there is nothing to guess that a slow hash would protect (docs/laundry.md).
 */
export function newDeviceKey(): string {
  return `lnd_${randomBytes(24).toString('base64url')}`;
}

export function hashDeviceKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isDeviceKeyShaped(key: string): boolean {
  return LAUNDRY_KEY_PATTERN.test(key);
}

/** Letters and digits that cannot be mistaken for each other when read out or typed (no I, L, O, U, 0, 1). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';

/** A customer code: `C` and 9 characters of the alphabet above (about 44 bits), printed on the customer's card. */
export function newCustomerCode(): string {
  const bytes = randomBytes(9);
  let code = 'C';
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return code;
}
