import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';

/**
 * A mail provider for tests and the demo, speaking real SMTP on 127.0.0.1: the
 * channel's SMTP server that takes our replies (it checks the login, records each mail parsed, and
 * can answer the next ones with an SMTP error), and a contact's mail client that writes to the
 * channel's forwarding address (the worker's inbound listener).
 */
export interface SimulatedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  from: string | null;
  to: string | null;
  subject: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  text: string;
  html: string | null;
  attachments: { filename: string | null; contentType: string; content: Buffer }[];
}

export interface EmailSimulatorOptions {
  port?: number;
  host?: string;
  /** The login the channel must use; any login is taken when absent. */
  username?: string;
  password?: string;
  /** The inbound listener contacts write to (host and port of the worker's EMAIL_INBOUND_SMTP_PORT). */
  inbound?: { host: string; port: number };
  /** Called for each mail taken (the demo prints a line). */
  onMail?: (mail: SimulatedMail) => void;
}

export interface EmailSimulator {
  port: number;
  sent(): SimulatedMail[];
  /** The next `count` mails are answered with this SMTP code (4xx transient, 5xx permanent). */
  failNext(count: number, code: number, message?: string): void;
  reset(): void;
  /** A contact writes to `to` (a forwarding address) through the inbound listener; answers the Message-ID used. */
  sendInbound(mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string;
    inReplyTo?: string;
    references?: string[];
    messageId?: string;
    attachments?: { filename: string; content: Buffer; contentType: string }[];
  }): Promise<string>;
  close(): Promise<void>;
}

const ids = (value: string | string[] | undefined) => (Array.isArray(value) ? value : value ? value.split(/\s+/) : []).filter(Boolean);

export async function startEmailSimulator(options: EmailSimulatorOptions = {}): Promise<EmailSimulator> {
  let mails: SimulatedMail[] = [];
  let failures: { code: number; message: string }[] = [];
  const server = new SMTPServer({
    name: 'mail-simulator',
    authOptional: !options.username,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.username && (auth.username !== options.username || auth.password !== options.password)) {
        return callback(Object.assign(new Error('Invalid login'), { responseCode: 535 }));
      }
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const failure = failures.shift();
        if (failure) return callback(Object.assign(new Error(failure.message), { responseCode: failure.code }));
        simpleParser(Buffer.concat(chunks))
          .then((parsed) => {
            const mail: SimulatedMail = {
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              from: parsed.from?.text ?? null,
              to: (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.text ?? null,
              subject: parsed.subject ?? null,
              messageId: parsed.messageId ?? null,
              inReplyTo: parsed.inReplyTo ?? null,
              references: ids(parsed.references),
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : null,
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename ?? null,
                contentType: a.contentType,
                content: a.content,
              })),
            };
            mails.push(mail);
            options.onMail?.(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    sent: () => [...mails],
    failNext: (count, code, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later') => {
      for (let i = 0; i < count; i++) failures.push({ code, message });
    },
    reset: () => {
      mails = [];
      failures = [];
    },
    async sendInbound(mail) {
      if (!options.inbound) throw new Error('The simulator has no inbound listener to write to');
      const transport = nodemailer.createTransport({
        host: options.inbound.host,
        port: options.inbound.port,
        secure: false,
        ignoreTLS: true,
      });
      try {
        const info = await transport.sendMail({
          ...mail,
          ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo, references: mail.references ?? [mail.inReplyTo] } : {}),
        });
        return info.messageId;
      } finally {
        transport.close();
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
