import { inTransaction } from '../../../db/transaction.js';
import type { JobDefinition } from '../../area.js';
import { purgeExpiredSignInRecords } from './purge.repository.js';
import { KNOWN_ADDRESS_DAYS } from './sign-in-guard.js';

/**
 * Parameter `keepDays` (default 30): how long expired or revoked sessions and trusted browsers are
 * kept. Addresses an account has not signed in from for a year are forgotten.
 */
export const purgeExpiredJob: JobDefinition = {
  name: 'auth.purgeExpired',
  scope: 'system',
  async run({ db, params, log }) {
    const keepDays = params.keepDays === undefined || params.keepDays === '' ? 30 : Number(params.keepDays);
    if (!Number.isInteger(keepDays) || keepDays < 0 || keepDays > 3650) throw new Error(`keepDays must be a whole number from 0 to 3650, got "${params.keepDays}"`);
    const counts = await inTransaction(db, (trx) => purgeExpiredSignInRecords(trx, keepDays, KNOWN_ADDRESS_DAYS));
    log(`purged ${counts.sessions} sessions, ${counts.trustedBrowsers} trusted browsers, ${counts.challenges} two-step challenges, ${counts.codes} e-mail codes, ${counts.knownAddresses} known addresses`);
  },
};
