import { fieldMessage } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';

/**
 * An e-mail channel: the mailbox's own SMTP server sends our replies (settings
 * below, password encrypted with the other credentials); mail reaches us through the inbound SMTP
 * listener (listener.ts) at a forwarding address that carries the channel's webhook_secret, posted
 * raw (message/rfc822) to the channel's webhook with that secret in a header, or, with imap_host
 * set, fetched by the worker from the mailbox itself over IMAP (imap.ts). The login is the
 * password, or an OAuth 2.0 refresh token of Google or Microsoft exchanged for access tokens
 * (oauth.ts) used as XOAUTH2 by both SMTP and IMAP.
 */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const flag = z.preprocess((v) => (typeof v === 'string' ? ['true', '1', 'on', 'yes'].includes(v.trim().toLowerCase()) : v), z.boolean());
const HOST = /^[A-Za-z0-9.:[\]-]+$/;
const port = z.preprocess(blankAsAbsent, z.coerce.number().int().min(1).max(65535).optional());
/** A mailbox (folder) name as the server lists it: any text but control characters. */
const mailboxName = z.preprocess(
  blankAsAbsent,
  z
    .string()
    .trim()
    .max(255)
    .regex(/^[^\u0000-\u001f\u007f]+$/, fieldMessage('mailbox_name_invalid'))
    .optional(),
);

export const EMAIL_OAUTH_PROVIDERS = ['google', 'microsoft'] as const;
export type EmailOAuthProvider = (typeof EMAIL_OAUTH_PROVIDERS)[number];

export const EmailSettingsSchema = z.looseObject({
  smtp_host: z.string().trim().min(1, fieldMessage('smtp_host_required')).max(253).regex(HOST, fieldMessage('smtp_host_invalid')),
  smtp_port: port,
  /** Implicit TLS (port 465); otherwise STARTTLS is used when the server offers it. */
  smtp_secure: z.preprocess(blankAsAbsent, flag.optional()),
  from_address: z.email({ message: fieldMessage('from_address_invalid') }),
  /** SMTP login; from_address when absent. */
  username: z.preprocess(blankAsAbsent, z.string().trim().max(320).optional()),
  /** The mailbox's IMAP server: when set, the worker reads the mailbox itself (besides the forwarding address). */
  imap_host: z.preprocess(blankAsAbsent, z.string().trim().max(253).regex(HOST, fieldMessage('imap_host_invalid')).optional()),
  /** 993 when absent. */
  imap_port: port,
  /** Implicit TLS (port 993), on when absent; off: STARTTLS when the server offers it. */
  imap_secure: z.preprocess(blankAsAbsent, flag.optional()),
  /** IMAP login; the SMTP login when absent. */
  imap_username: z.preprocess(blankAsAbsent, z.string().trim().max(320).optional()),
  /** The folder read; INBOX when absent. */
  imap_mailbox: mailboxName,
  /** When set, each reply sent is also appended to this folder (the mailbox's "Sent"). */
  sent_mailbox: mailboxName,
  /** Log in with OAuth 2.0 (the refresh_token secret) instead of the password. */
  oauth_provider: z.preprocess(
    blankAsAbsent,
    z.enum(EMAIL_OAUTH_PROVIDERS, { message: fieldMessage('oauth_provider_invalid') }).optional(),
  ),
});
export type EmailSettings = z.infer<typeof EmailSettingsSchema>;

export const EmailSecretsSchema = z.looseObject({
  password: z.preprocess(blankAsAbsent, z.string().max(2000).optional()),
  /** OAuth 2.0 (oauth_provider): exchanged at the provider for the access tokens SMTP and IMAP log in with. */
  refresh_token: z.preprocess(blankAsAbsent, z.string().trim().max(8000).optional()),
  /** Ours: the forwarding address's token, or the X-Atende-Email-Secret header of a raw post. */
  webhook_secret: z.preprocess(blankAsAbsent, z.string().trim().max(256).optional()),
});
export type EmailSecrets = z.infer<typeof EmailSecretsSchema>;

export function emailSettingsOf(channel: ChannelTarget): EmailSettings {
  const parsed = EmailSettingsSchema.safeParse(channel.config ?? {});
  if (!parsed.success)
    throw new ChannelDeliveryError('permanent', `Channel settings are invalid: ${parsed.error.issues[0]?.message ?? 'smtp_host'}`);
  return parsed.data;
}

/** The secrets, or all absent when unreadable: an authenticity check must answer false, not throw. */
export function emailSecretsOf(channel: ChannelTarget): EmailSecrets {
  const parsed = EmailSecretsSchema.safeParse(channel.credentials ?? {});
  return parsed.success ? parsed.data : {};
}

/** The IMAP connection a channel's settings describe, with the defaults filled in; null without imap_host. */
export function imapSettingsOf(settings: EmailSettings): {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  mailbox: string;
} | null {
  if (!settings.imap_host) return null;
  const secure = settings.imap_secure ?? true;
  return {
    host: settings.imap_host,
    port: settings.imap_port ?? (secure ? 993 : 143),
    secure,
    username: settings.imap_username ?? settings.username ?? settings.from_address,
    mailbox: settings.imap_mailbox ?? 'INBOX',
  };
}
