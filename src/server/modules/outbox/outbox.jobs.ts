import { inTransaction } from '../../db/transaction.js';
import type { JobDefinition } from '../area.js';
import { findUndeliveredEmails, markOutboxMessage } from './outbox.repository.js';

function wholeNumber(value: string | undefined, fallback: number, max: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be a whole number from 1 to ${max}, got "${value}"`);
  return n;
}

/**
 * Sends the outbox's undelivered e-mails again through SMTP_URL (parameters `maxAgeHours`, default
 * 24, and `batchSize`, default 50). Messages whose code was masked are left: their code is gone.
 * Fails the run when any message was refused, so that it is retried and seen in the history.
 */
export const sendOutboxEmailJob: JobDefinition = {
  name: 'notify.sendOutboxEmail',
  scope: 'system',
  async run({ db, params, config, log }) {
    if (!config.smtpUrl) {
      log('SMTP_URL is not set: nothing sent');
      return;
    }
    const maxAgeHours = wholeNumber(params.maxAgeHours, 24, 24 * 365, 'maxAgeHours');
    const batchSize = wholeNumber(params.batchSize, 50, 1000, 'batchSize');
    const messages = await findUndeliveredEmails(db, maxAgeHours, batchSize);
    const { default: nodemailer } = await import('nodemailer');
    const mailer = nodemailer.createTransport(config.smtpUrl);
    let refused = 0;
    try {
      for (const message of messages) {
        try {
          await mailer.sendMail({ from: config.mailFrom, to: message.recipient, subject: message.subject ?? '', text: message.body });
          await inTransaction(db, (trx) => markOutboxMessage(trx, Number(message.id), { status: 'sent', error: null }));
        } catch (error) {
          refused += 1;
          await inTransaction(db, (trx) => markOutboxMessage(trx, Number(message.id), { status: 'failed', error: (error as Error).message }));
        }
      }
    } finally {
      mailer.close();
    }
    log(`sent ${messages.length - refused} of ${messages.length} e-mails`);
    if (refused) throw new Error(`${refused} e-mails were refused by the mail server`);
  },
};
