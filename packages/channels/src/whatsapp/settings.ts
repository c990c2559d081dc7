import { z } from 'zod';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';

/**
 * A WhatsApp channel's settings (ChannelTarget.config, contract CHANNEL_SETTING_FIELDS plus
 * api_version) and secrets (ChannelTarget.credentials, CHANNEL_SECRET_FIELDS), validated once per
 * call. Form-encoded channel creation stores unset fields as '', so blank counts as absent.
 */

const optionalText = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().trim().max(2000).optional(),
);
const httpUrl = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.url({ protocol: /^https?$/, message: 'base_url must be an http(s) address' }).optional(),
);

export const WhatsAppSettingsSchema = z.looseObject({
  /** The provider's API address; a simulator in tests and demos. */
  base_url: httpUrl,
  phone_number_id: optionalText,
  waba_id: optionalText,
  /** Cloud API Graph version path segment (v21.0 unless set). */
  graph_version: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^v\d+\.\d+$/, 'graph_version looks like v21.0').optional()),
  account_sid: optionalText,
  from_number: optionalText,
  messaging_service_sid: optionalText,
  /** 360dialog: 'onpremise' until update_to_cloud_api moves the channel to the Cloud API. */
  api_version: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(['onpremise', 'cloud']).optional()),
});
export type WhatsAppSettings = z.infer<typeof WhatsAppSettingsSchema>;

export const WhatsAppSecretsSchema = z.looseObject({
  access_token: optionalText,
  app_secret: optionalText,
  verify_token: optionalText,
  api_key: optionalText,
  auth_token: optionalText,
  webhook_secret: optionalText,
});
export type WhatsAppSecrets = z.infer<typeof WhatsAppSecretsSchema>;

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || what;
  throw new ChannelDeliveryError('permanent', `Channel ${what} are invalid: ${field}: ${issue?.message ?? 'invalid'}`);
}

export const settingsOf = (channel: ChannelTarget): WhatsAppSettings => parsed(WhatsAppSettingsSchema, channel.config, 'settings');

/** The secrets, or all absent when they are unreadable: a webhook check must answer false, not throw. */
export function secretsOf(channel: ChannelTarget): WhatsAppSecrets {
  const result = WhatsAppSecretsSchema.safeParse(channel.credentials ?? {});
  return result.success ? result.data : {};
}

/** A setting or secret the call cannot do without; its absence is the channel's configuration to fix. */
export function needed<T extends object, K extends keyof T & string>(values: T, key: K, label: string): NonNullable<T[K]> {
  const value = values[key];
  if (value === undefined || value === null || value === '') {
    throw new ChannelDeliveryError('permanent', `Channel has no ${label} configured (${key})`);
  }
  return value as NonNullable<T[K]>;
}

/** The channel's base_url without a trailing slash, or the provider's. */
export const baseUrlOf = (settings: WhatsAppSettings, fallback: string): string => (settings.base_url ?? fallback).replace(/\/+$/, '');
