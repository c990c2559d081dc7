import type { ChannelDefinition } from '../definition';
import { CUSTOM_CHANNEL_TYPES, CustomChannelAdapter } from './adapter';
import { CustomChannelConfigSchema, CustomChannelCredentialsSchema } from './payload';

/** The custom API channel (custom, droz, API): the caller posts with the channel's token; our deliveries go to its webhook_url. */
export const customChannel: ChannelDefinition = {
  types: CUSTOM_CHANNEL_TYPES,
  settingsSchema: CustomChannelConfigSchema,
  secretsSchema: CustomChannelCredentialsSchema,
  createAdapter: (options) => new CustomChannelAdapter({ outbound: options.outbound, ...options.custom }),
  // Deliveries to the caller's address are signed with a secret of ours.
  onCreate: ({ settings, secrets, newSecret }) => {
    if (settings.webhook_url && !secrets.webhook_secret) secrets.webhook_secret = newSecret();
    return null;
  },
};
