import { isIP } from 'node:net';
import type { ImapFlow } from 'imapflow';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';
import { isOutboundRefused, resolveAllowedHost, type OutboundPolicy } from '../outbound-address';
import type { EmailAccessTokens } from './oauth';
import { emailSecretsOf, emailSettingsOf, imapSettingsOf, type EmailSecrets, type EmailSettings } from './settings';

/**
 * The mailbox side of an e-mail channel over IMAP (imapflow): the connection the worker reads new
 * mail through (apps/worker channel-inbound/email-imap.ts) and the one a sent reply is appended to
 * the Sent folder through. The server's address goes through the outbound policy like smtp_host
 * (the name is resolved and checked, and the address answered is the one connected to), and the
 * login is the channel's password or an OAuth access token (XOAUTH2).
 */
export interface ImapConnectOptions {
  policy: OutboundPolicy;
  tokens: EmailAccessTokens;
  timeoutMs?: number;
  /** How long a selected mailbox stays quiet before IDLE starts (imapflow's default is 15 s). */
  idleDelayMs?: number;
  /** Tests: resolve host names without DNS. */
  lookup?: (host: string) => Promise<{ address: string }[]>;
}

/** What SMTP and IMAP log in with: the password, or an OAuth access token (XOAUTH2); null when the channel has neither. */
export type MailboxLogin = { user: string; pass: string } | { user: string; accessToken: string };

export async function mailboxLogin(
  user: string,
  settings: EmailSettings,
  secrets: EmailSecrets,
  tokens: EmailAccessTokens,
): Promise<MailboxLogin | null> {
  if (settings.oauth_provider) {
    if (!secrets.refresh_token)
      throw new ChannelDeliveryError('permanent', `oauth_provider is ${settings.oauth_provider} but the channel has no refresh_token`);
    return { user, accessToken: await tokens.get(settings.oauth_provider, secrets.refresh_token) };
  }
  return secrets.password ? { user, pass: secrets.password } : null;
}

/** A short reason for a failed IMAP step, never the credentials: a refused login, a refused address, or the server's answer. */
export function imapFailureReason(error: unknown): string {
  if (isOutboundRefused(error) || error instanceof ChannelDeliveryError) return error.message;
  const e = error as {
    authenticationFailed?: boolean;
    responseText?: string;
    serverResponseCode?: string;
    code?: string;
    message?: string;
  };
  const said = (e.responseText ?? e.message ?? 'IMAP failure').replace(/\s+/g, ' ').trim().slice(0, 300);
  if (e.authenticationFailed) return `IMAP login refused: ${said}`;
  if (e.code && /^E[A-Z]+$/.test(e.code)) return `IMAP server not reached (${e.code}): ${said}`;
  return `IMAP: ${said}`;
}

/** Whether a failure is the server refusing the login (so a cached OAuth access token is dropped). */
export const isImapLoginRefused = (error: unknown): boolean => (error as { authenticationFailed?: boolean }).authenticationFailed === true;

export interface ImapSession {
  client: ImapFlow;
  /** The mailbox this connection reads, as a stable name: user@host:port/folder (its UIDs are kept under it). */
  identity: string;
  mailbox: string;
  settings: EmailSettings;
}

/**
 * Connects and logs in to the channel's IMAP server (imap_host). imapflow is loaded here, so a
 * process with no IMAP channel never holds it. The caller logs out (or closes) the client.
 */
export async function connectImap(channel: ChannelTarget, options: ImapConnectOptions): Promise<ImapSession> {
  const settings = emailSettingsOf(channel);
  const imap = imapSettingsOf(settings);
  if (!imap) throw new ChannelDeliveryError('permanent', 'The channel has no imap_host');
  const login = await mailboxLogin(imap.username, settings, emailSecretsOf(channel), options.tokens);
  if (!login) throw new ChannelDeliveryError('permanent', 'The channel has no password or refresh_token for IMAP');
  const address = await resolveAllowedHost(imap.host, options.policy, options.lookup);
  const { ImapFlow } = await import('imapflow');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const bareName = imap.host.replace(/^\[|\]$/g, '');
  const client = new ImapFlow({
    host: address,
    port: imap.port,
    secure: imap.secure,
    // The certificate is checked against the name the admin gave, not the address connected to.
    ...(isIP(bareName) ? {} : { servername: bareName }),
    auth: 'pass' in login ? { user: login.user, pass: login.pass } : { user: login.user, accessToken: login.accessToken },
    logger: false,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: Math.max(timeoutMs * 10, 5 * 60_000),
    clientInfo: { name: 'Atende' },
    ...(options.idleDelayMs ? { autoIdleDelay: options.idleDelayMs } : {}),
  });
  // Without a listener an 'error' event would be thrown at the process; the caller learns of it through close.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.close();
    if (isImapLoginRefused(error) && settings.oauth_provider) {
      const refreshToken = emailSecretsOf(channel).refresh_token;
      if (refreshToken) options.tokens.forget(settings.oauth_provider, refreshToken);
    }
    throw error;
  }
  return {
    client,
    identity: `${imap.username.toLowerCase()}@${bareName.toLowerCase()}:${imap.port}/${imap.mailbox}`,
    mailbox: imap.mailbox,
    settings,
  };
}

/**
 * Appends a message we sent (the raw bytes given to SMTP) to the channel's sent_mailbox, marked
 * read, so the mailbox's own Sent folder shows our replies beside those sent from a mail client.
 */
export async function appendToSent(channel: ChannelTarget, raw: Buffer, options: ImapConnectOptions): Promise<void> {
  const folder = emailSettingsOf(channel).sent_mailbox;
  if (!folder) return;
  const { client } = await connectImap(channel, options);
  try {
    const appended = await client.append(folder, raw, ['\\Seen']);
    if (!appended) throw new Error(`The IMAP server did not take the message into ${folder}`);
  } finally {
    await client.logout().catch(() => client.close());
  }
}
