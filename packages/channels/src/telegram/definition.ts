import type { ChannelDefinition } from '../definition';
import { digest, secretValue } from '../identity-rules';
import { TelegramAdapter } from './adapter';
import { TelegramSecretsSchema, TelegramSettingsSchema } from './settings';

/** A Telegram bot: checked (getMe) and its webhook set (setWebhook) from our side, with a secret of ours. */
export const telegramChannel: ChannelDefinition = {
  types: ['telegram'],
  settingsSchema: TelegramSettingsSchema,
  secretsSchema: TelegramSecretsSchema,
  createAdapter: (options) => new TelegramAdapter({ outbound: options.outbound, ...options.telegram }),
  // A bot has one webhook: its id is the token's part before ':' (a token of another form counts as a whole, digested).
  identity: (_settings, secrets) => {
    const token = secretValue(secrets, 'bot_token');
    if (!token) return null;
    const bot = /^(\d+):/.exec(token)?.[1];
    return { identity: `telegram:${bot ?? digest(token)}`, field: 'bot_token' };
  },
  // The secret_token Telegram sends back with every update is ours, never one an admin typed.
  onCreate: ({ secrets, newSecret }) => {
    secrets.webhook_secret = newSecret();
    return null;
  },
  ownsWebhookSecret: true,
  // A new token or address sets the webhook again.
  setUpAgainOn: { secrets: ['bot_token'], settings: ['base_url'] },
};
