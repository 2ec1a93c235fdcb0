import { AppError } from '../../../common/errors.js';
import { defineBehaviour } from '../area.js';
import { resendEdiMessages } from './edi.service.js';

/**
 * Resend of the EDI log: the selected messages are handed to their customer's endpoint again now,
 * whatever their status; the answer says how many were taken, and the first error of the others.
 */
export const resendBehaviour = defineBehaviour({
  name: 'edi.message.resend',
  right: 'edi.ediLogSummary:resend',
  async run({ trx, session, rows }) {
    if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
    if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    const ids = rows.map((r) => Number(r._key));
    if (!ids.length) throw new AppError('NO_RECORD');
    const outcomes = await resendEdiMessages(trx, { projectId: session.projectId, warehouseId: session.warehouseId, by: session.loginAccount }, ids);
    const sent = outcomes.filter((o) => o.status === 'sent').length;
    const firstError = outcomes.find((o) => 'error' in o && o.error);
    return {
      result: { outcomes },
      messageCode: firstError ? 'edi.result.partlySent' : 'edi.result.resent',
      messageParams: { sent, count: outcomes.length, error: firstError && 'error' in firstError ? (firstError.error ?? '') : '' },
    };
  },
});
