import { z } from 'zod';
import type { ChannelTarget } from '../adapter';
import { httpUrl, optionalText, parsedSecrets, parsedSettings } from '../provider-settings';

/** A Twilio Programmable Messaging channel's settings and secrets (SMS; WhatsApp through Twilio reads the same fields from its own). */
export const TwilioSettingsSchema = z.looseObject({
  /** Twilio's API address; a simulator in tests and demos. */
  base_url: httpUrl,
  account_sid: optionalText,
  from_number: optionalText,
  messaging_service_sid: optionalText,
});
export type TwilioSettings = z.infer<typeof TwilioSettingsSchema>;

export const TwilioSecretsSchema = z.looseObject({
  auth_token: optionalText,
});
export type TwilioSecrets = z.infer<typeof TwilioSecretsSchema>;

export const twilioSettingsOf = (channel: ChannelTarget): TwilioSettings =>
  parsedSettings(TwilioSettingsSchema, channel.config, 'settings');

/** The secrets, or all absent when they are unreadable: a webhook check must answer false, not throw. */
export const twilioSecretsOf = (channel: ChannelTarget): TwilioSecrets => parsedSecrets(TwilioSecretsSchema, channel.credentials);
