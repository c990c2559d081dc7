import type { SMTPServerSession } from 'smtp-server';
import { sameSecret } from '../http';
import { EMAIL_MAX_BYTES } from './inbound';

/**
 * The inbound side of e-mail channels: an SMTP listener (smtp-server) that takes
 * mail forwarded from the channel's mailbox to its forwarding address and queues each raw message
 * on channel-inbound, answering the sending server as soon as the message is queued. A forwarding
 * rule works with every provider and needs no password to read mail; a channel may also (or
 * instead) have its mailbox read over IMAP (imap_host: imap.ts, and the worker's email-imap.ts).
 *
 * The forwarding address is `<channel uuid, hex>.<first 24 characters of its webhook_secret>@<any
 * domain routed here>` (57 characters, under RFC 5321's 64 for a local part): the token is the
 * authenticity check, so an address guessed from the channel uuid alone is refused (550). The whole
 * address is case-insensitive: mail systems and people change the case of local parts, so
 * the token is compared lower-cased (24 of 38 symbols: still over 120 bits).
 */
export interface InboundSmtpOptions {
  port: number;
  host?: string;
  /** A raw message bigger than this is refused (552) before it is queued. */
  maxBytes?: number;
  /** The channel a forwarding address names: its tenant, whether it takes mail, and its webhook_secret. */
  channelOf(channelId: string): Promise<{ tenantId: string; enabled: boolean; secret: string | null } | null>;
  /** Queues one raw message for a channel (channel-inbound); a throw answers 451 so the sender retries. */
  deliver(input: { tenantId: string; channelId: string; raw: Buffer; receivedAt: Date }): Promise<void>;
  /** TLS for STARTTLS; without it the listener offers none (run it behind a relay, or on a trusted network). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  log?: { warn(details: object, message: string): void };
}

export interface InboundSmtpListener {
  port: number;
  close(): Promise<void>;
}

const TOKEN_LENGTH = 24;
/** The token a forwarding address carries, as compared: the secret's first characters, lower-cased. */
const addressToken = (secret: string) => secret.slice(0, TOKEN_LENGTH).toLowerCase();

export function forwardingAddress(channelId: string, secret: string, domain: string): string {
  return `${channelId.replace(/-/g, '').toLowerCase()}.${addressToken(secret)}@${domain.toLowerCase()}`;
}

/** The channel uuid and token of a forwarding address, or null. */
function parseRecipient(address: string): { channelId: string; token: string } | null {
  const local = address.split('@')[0] ?? '';
  const match = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{1,64})$/i.exec(local);
  if (!match) return null;
  const hex = match[1]!.toLowerCase();
  return {
    channelId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    token: match[2]!,
  };
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

interface Session extends SMTPServerSession {
  channels?: Map<string, string>;
}

export async function startInboundSmtp(options: InboundSmtpOptions): Promise<InboundSmtpListener> {
  // Loaded here, not at start: a worker without EMAIL_INBOUND_SMTP_PORT never holds smtp-server.
  const { SMTPServer } = await import('smtp-server');
  const maxBytes = options.maxBytes ?? EMAIL_MAX_BYTES;
  const server = new SMTPServer({
    name: 'atende-inbound',
    banner: 'Atende inbound mail',
    size: maxBytes,
    authOptional: true,
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    logger: false,
    async onRcptTo(address, session: Session, callback) {
      try {
        const recipient = parseRecipient(address.address);
        const channel = recipient ? await options.channelOf(recipient.channelId) : null;
        if (
          !recipient ||
          !channel ||
          !channel.enabled ||
          !channel.secret ||
          !sameSecret(recipient.token.toLowerCase(), addressToken(channel.secret))
        ) {
          return callback(smtpError(550, 'No such mailbox'));
        }
        (session.channels ??= new Map()).set(recipient.channelId, channel.tenantId);
        callback();
      } catch {
        callback(smtpError(451, 'Try again later'));
      }
    },
    onData(stream, session: Session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => callback(smtpError(451, 'Try again later')));
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(smtpError(552, 'Message too big'));
        const raw = Buffer.concat(chunks);
        const receivedAt = new Date();
        Promise.all(
          [...(session.channels ?? new Map<string, string>())].map(([channelId, tenantId]) =>
            options.deliver({ tenantId, channelId, raw, receivedAt }),
          ),
        )
          .then(() => callback())
          .catch((error: unknown) => {
            options.log?.warn({ err: error }, 'inbound mail not queued; the sender retries');
            callback(smtpError(451, 'Try again later'));
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  server.on('error', (error) => options.log?.warn({ err: error }, 'inbound SMTP listener error'));
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
