import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { insertOutboxMessage } from './outbox.repository.js';
import { HttpSmsProvider, type SmsProvider } from './sms-provider.js';

/**
 * A message to deliver. `secret` is the code or token the text carries: it is never
 * stored, only masked, and without a configured channel it reaches the server log alone.
 */
export type Message =
  | { channel: 'email'; to: string; subject: string; text: string; secret?: string }
  | { channel: 'sms'; to: string; text: string; secret?: string };

/** The text with its secret masked, as it may be stored. */
export function maskedText(message: Message): string {
  return message.secret ? message.text.split(message.secret).join('******') : message.text;
}

/** Sends e-mails and text messages to people outside the application (in-app notices are `raiseNotification`). */
export interface MessageOutbox {
  /** Delivers a message; never throws: a failure is kept in the outbox and logged. */
  send(message: Message): Promise<void>;
}

/**
 * E-mail over SMTP (SMTP_URL), SMS through the provider at SMS_URL. With a
 * channel not configured, its messages go to the outbox table and the server log, so a local
 * install can still read its codes. Call after the transaction that made the message committed.
 */
export function createMessageOutbox(options: {
  config: Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'smsUrl'>;
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  sms?: SmsProvider;
}): MessageOutbox {
  const { config, db, log } = options;
  let mailer: Transporter | undefined;
  const sms = options.sms ?? (config.smsUrl ? new HttpSmsProvider(config.smsUrl) : undefined);

  async function record(message: Message, status: 'stored' | 'sent' | 'failed', error: string | null) {
    const subject = message.channel === 'email' ? message.subject : null;
    // A delivered message's text is not kept; an undelivered one is, for the operator, with its code masked.
    const body = status === 'sent' ? '(delivered)' : maskedText(message);
    try {
      await inTransaction(db, (trx) => insertOutboxMessage(trx, { channel: message.channel, recipient: message.to, subject, body, status, error }));
    } catch (err) {
      log.error({ err }, 'outbox: could not record a message');
    }
  }

  return {
    async send(message) {
      try {
        if (message.channel === 'email') {
          if (!config.smtpUrl) {
            // A local install without SMTP reads its codes from the log; the table keeps the text masked.
            log.info({ outbox: { channel: 'email', to: message.to, subject: message.subject, text: message.text } }, 'e-mail not sent (SMTP_URL is not set)');
            return await record(message, 'stored', null);
          }
          // The mail library is loaded by the first e-mail sent, not when the server starts.
          mailer ??= (await import('nodemailer')).default.createTransport(config.smtpUrl);
          await mailer.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text });
        } else {
          if (!sms) {
            log.info({ outbox: { channel: 'sms', to: message.to, text: message.text } }, 'SMS not sent (SMS_URL is not set)');
            return await record(message, 'stored', null);
          }
          await sms.send(message.to, message.text);
        }
        await record(message, 'sent', null);
      } catch (err) {
        log.error({ err, channel: message.channel, to: message.to }, 'message delivery failed');
        await record(message, 'failed', (err as Error).message);
      }
    },
  };
}
