import { z } from 'zod';
import type { ChannelTarget } from '../adapter';
import { httpUrl, needed, optionalText, parsedSecrets, parsedSettings } from '../provider-settings';

/**
 * A WhatsApp Web channel's settings and secrets: the address of the bridge (an Evolution API v2
 * server, self-hosted, with no address of its own to fall back on), the name of the bridge's
 * instance holding the QR-linked phone, and the bridge's API key (the instance's token, or the
 * server's global key). The webhook secret is ours (setUp registers it with the webhook).
 */

/** An instance name goes into the request path: letters, digits and a few separators only. */
export const INSTANCE_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,99}$/;

export const WhatsAppWebSettingsSchema = z.looseObject({
  base_url: httpUrl,
  instance: optionalText,
});
export type WhatsAppWebSettings = z.infer<typeof WhatsAppWebSettingsSchema>;

export const WhatsAppWebSecretsSchema = z.looseObject({
  api_key: optionalText,
  webhook_secret: optionalText,
});
export type WhatsAppWebSecrets = z.infer<typeof WhatsAppWebSecretsSchema>;

/** Where the bridge answers for the channel's instance: `{base}` and the instance's name as a path segment. */
export interface BridgeAddress {
  base: string;
  instance: string;
  apiKey: string;
}

export function bridgeOf(channel: ChannelTarget): BridgeAddress {
  const settings = parsedSettings(WhatsAppWebSettingsSchema, channel.config, 'settings');
  const base = needed(settings, 'base_url', 'bridge address').replace(/\/+$/, '');
  const instance = needed(settings, 'instance', 'bridge instance');
  const apiKey = needed(parsedSecrets(WhatsAppWebSecretsSchema, channel.credentials), 'api_key', 'API key');
  return { base, instance, apiKey };
}

/** The secrets, or all absent when they are unreadable: a webhook check must answer false, not throw. */
export const secretsOf = (channel: ChannelTarget): Partial<WhatsAppWebSecrets> =>
  parsedSecrets(WhatsAppWebSecretsSchema, channel.credentials);
