import { fieldMessage } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';

/**
 * An e-mail channel: the mailbox's own SMTP server sends our replies (settings
 * below, password encrypted with the other credentials); mail reaches us through the inbound SMTP
 * listener (listener.ts) at a forwarding address that carries the channel's webhook_secret, or
 * posted raw (message/rfc822) to the channel's webhook with that secret in a header.
 */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const flag = z.preprocess((v) => (typeof v === 'string' ? ['true', '1', 'on', 'yes'].includes(v.trim().toLowerCase()) : v), z.boolean());

export const EmailSettingsSchema = z.looseObject({
  smtp_host: z
    .string()
    .trim()
    .min(1, fieldMessage('smtp_host_required'))
    .max(253)
    .regex(/^[A-Za-z0-9.:[\]-]+$/, fieldMessage('smtp_host_invalid')),
  smtp_port: z.preprocess(blankAsAbsent, z.coerce.number().int().min(1).max(65535).optional()),
  /** Implicit TLS (port 465); otherwise STARTTLS is used when the server offers it. */
  smtp_secure: z.preprocess(blankAsAbsent, flag.optional()),
  from_address: z.email({ message: fieldMessage('from_address_invalid') }),
  /** SMTP login; from_address when absent. */
  username: z.preprocess(blankAsAbsent, z.string().trim().max(320).optional()),
});
export type EmailSettings = z.infer<typeof EmailSettingsSchema>;

export const EmailSecretsSchema = z.looseObject({
  password: z.preprocess(blankAsAbsent, z.string().max(2000).optional()),
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
