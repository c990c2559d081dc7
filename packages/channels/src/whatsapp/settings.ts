import { fieldMessage } from '@atende/contract';
import { z } from 'zod';
import type { ChannelTarget } from '../adapter';
import { httpUrl, optionalText, parsedSecrets, parsedSettings } from '../provider-settings';

export { baseUrlOf, needed } from '../provider-settings';

/**
 * A WhatsApp channel's settings (ChannelTarget.config, contract CHANNEL_SETTING_FIELDS plus
 * api_version) and secrets (ChannelTarget.credentials, CHANNEL_SECRET_FIELDS), validated once per
 * call. Form-encoded channel creation stores unset fields as '', so blank counts as absent.
 */

export const WhatsAppSettingsSchema = z.looseObject({
  /** The provider's API address; a simulator in tests and demos. */
  base_url: httpUrl,
  phone_number_id: optionalText,
  waba_id: optionalText,
  /** Cloud API Graph version path segment (v21.0 unless set). */
  graph_version: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^v\d+\.\d+$/, fieldMessage('graph_version_invalid'))
      .optional(),
  ),
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

export const settingsOf = (channel: ChannelTarget): WhatsAppSettings => parsedSettings(WhatsAppSettingsSchema, channel.config, 'settings');

/** The secrets, or all absent when they are unreadable: a webhook check must answer false, not throw. */
export const secretsOf = (channel: ChannelTarget): WhatsAppSecrets => parsedSecrets(WhatsAppSecretsSchema, channel.credentials);
