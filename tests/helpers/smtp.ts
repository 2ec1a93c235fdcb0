import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The message text with quoted-printable soft line breaks and escapes undone. */
  text: string;
}

export interface TestSmtpServer {
  url: string;
  mails: ReceivedMail[];
  /** Waits for the next mail to `to` that arrives after `since` mails were received. */
  nextMailTo(to: string, since?: number, timeoutMs?: number): Promise<ReceivedMail>;
  /** The 6-digit code in the newest mail to `to` received after `since`. */
  nextCodeFor(to: string, since?: number): Promise<string>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A real SMTP server on a free local port (the `smtp-server` package), collecting every mail. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = chunks.map((c) => c.toString('latin1')).join('');
        const [head, ...body] = raw.split(/\r?\n\r?\n/);
        const subjectLine = /^Subject: (.*(?:\r?\n\s+.*)*)/m.exec(head)?.[1] ?? '';
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          subject: subjectLine.replace(/\r?\n\s+/g, ' '),
          text: decodeQuotedPrintable(body.join('\n\n')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  async function nextMailTo(to: string, since = 0, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = mails.slice(since).reverse().find((m) => m.to.includes(to.toLowerCase()));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    nextMailTo,
    async nextCodeFor(to, since = 0) {
      const mail = await nextMailTo(to, since);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (!code) throw new Error(`no code in the mail to ${to}: ${mail.text}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
