import type { ChannelDefinition, ChannelValues } from '../definition';
import { WhatsAppWebAdapter } from './adapter';
import { WhatsAppWebSecretsSchema, WhatsAppWebSettingsSchema } from './settings';

/**
 * The bridge's address as compared: scheme and host lower-cased (URL does it), default port dropped,
 * the path kept without trailing slashes; null for no address.
 */
function bridgeAddressOf(value: unknown): string | null {
  if (typeof value !== 'string' || !URL.canParse(value.trim())) return null;
  const url = new URL(value.trim());
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * WhatsApp Web: a phone linked by QR code to an instance of a bridge speaking the Evolution API v2.
 * The bridge posts the instance's events to the channel's webhook address, which setUp registers
 * (with a secret of ours) when the channel is created and whenever the bridge, the instance or the
 * key changes.
 */
export const whatsappWebChannel: ChannelDefinition = {
  types: ['whatsapp_web'],
  settingsSchema: WhatsAppWebSettingsSchema,
  secretsSchema: WhatsAppWebSecretsSchema,
  createAdapter: (options) => new WhatsAppWebAdapter({ outbound: options.outbound, ...options.whatsappWeb }),
  // One phone per bridge instance: the same instance of the same bridge is one live channel. Instance names are the bridge's, case kept.
  identity: (settings: ChannelValues) => {
    const address = bridgeAddressOf(settings.base_url);
    const instance = typeof settings.instance === 'string' ? settings.instance.trim() : '';
    return address && instance ? { identity: `whatsapp_web:${address}/${instance}`, field: 'instance' } : null;
  },
  // The webhook's Authorization secret is ours, never one an admin types.
  onCreate: ({ secrets, newSecret }) => {
    secrets.webhook_secret = newSecret();
    return null;
  },
  ownsWebhookSecret: true,
  setUpAgainOn: { secrets: ['api_key'], settings: ['base_url', 'instance'] },
};
