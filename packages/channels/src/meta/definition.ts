import type { ChannelDefinition } from '../definition';
import { idValue } from '../identity-rules';
import { InstagramAdapter, MessengerAdapter } from './adapter';
import { MetaMessagingSecretsSchema, MetaMessagingSettingsSchema } from './settings';

const schemas = { settingsSchema: MetaMessagingSettingsSchema, secretsSchema: MetaMessagingSecretsSchema };

/** A Facebook page's Messenger (Meta's Messenger Platform). */
export const messengerChannel: ChannelDefinition = {
  types: ['messenger'],
  ...schemas,
  createAdapter: (options) => new MessengerAdapter({ outbound: options.outbound, ...options.meta }),
  identity: (settings) => {
    const page = idValue(settings.page_id);
    return page ? { identity: `messenger:${page}`, field: 'page_id' } : null;
  },
  unnamedSender: 'Messenger user',
};

/** The Instagram professional account linked to a Facebook page (Meta's Messenger Platform). */
export const instagramChannel: ChannelDefinition = {
  types: ['instagram'],
  ...schemas,
  createAdapter: (options) => new InstagramAdapter({ outbound: options.outbound, ...options.meta }),
  // The id Meta's Instagram webhooks name the channel by: the professional account once known, else its page.
  identity: (settings) => {
    const account = idValue(settings.instagram_account_id);
    if (account) return { identity: `instagram:${account}`, field: 'instagram_account_id' };
    const page = idValue(settings.page_id);
    return page ? { identity: `instagram:${page}`, field: 'page_id' } : null;
  },
  unnamedSender: 'Instagram user',
};
