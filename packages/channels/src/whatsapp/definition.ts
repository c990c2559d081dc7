import { HASH_CHANNEL_KIND } from '@atende/contract';
import type { ChannelDefinition } from '../definition';
import { digest, idValue, secretValue, twilioIdentity, type IdentityOf } from '../identity-rules';
import { WhatsAppCloudAdapter } from './cloud';
import { WhatsApp360DialogAdapter } from './dialog360';
import { WhatsAppSecretsSchema, WhatsAppSettingsSchema } from './settings';
import { WhatsAppTwilioAdapter } from './twilio';

/** The WhatsApp Cloud API's phone-number id, shared by Meta's own API and the {hash} providers speaking it. */
const cloudPhone: IdentityOf = (settings) => {
  const phone = idValue(settings.phone_number_id);
  return phone ? { identity: `whatsapp:${phone}`, field: 'phone_number_id' } : null;
};

const schemas = { settingsSchema: WhatsAppSettingsSchema, secretsSchema: WhatsAppSecretsSchema };

/** Meta's WhatsApp Cloud API, and the {hash} providers speaking it (channels typed by a digest). */
export const whatsappCloudChannel: ChannelDefinition = {
  types: ['whatsapp_cloud', HASH_CHANNEL_KIND],
  ...schemas,
  createAdapter: (options) => new WhatsAppCloudAdapter({ outbound: options.outbound, ...options.whatsapp, ...options.whatsappCloud }),
  identity: cloudPhone,
};

/** 360dialog: on-premise API until moved to the Cloud API; it does not sign webhooks, so a token of ours comes back as a header. */
export const whatsapp360dialogChannel: ChannelDefinition = {
  types: ['whatsapp_360dialog'],
  ...schemas,
  createAdapter: (options) =>
    new WhatsApp360DialogAdapter({ outbound: options.outbound, ...options.whatsapp, ...options.whatsapp360dialog }),
  // A 360dialog channel is its API key (the webhook is configured per key); only a digest of the secret is kept.
  identity: (_settings, secrets) => {
    const key = secretValue(secrets, 'api_key');
    return key ? { identity: `whatsapp_360dialog:${digest(key)}`, field: 'api_key' } : null;
  },
  // The admin gives the generated token to 360dialog, so it is shown once.
  onCreate: ({ secrets, newSecret }) => (secrets.webhook_secret ? null : (secrets.webhook_secret = newSecret())),
  initialConfig: () => ({ api_version: 'onpremise' }),
  apiVersionOf: (config) => (config.api_version === 'cloud' ? 'cloud' : 'onpremise'),
};

/** WhatsApp through Twilio Programmable Messaging. */
export const whatsappTwilioChannel: ChannelDefinition = {
  types: ['whatsapp_twilio'],
  ...schemas,
  createAdapter: (options) => new WhatsAppTwilioAdapter({ outbound: options.outbound, ...options.whatsapp, ...options.whatsappTwilio }),
  identity: twilioIdentity('whatsapp_twilio'),
};
