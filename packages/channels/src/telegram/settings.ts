import { fieldMessage } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';

/** The Bot API's own address; a channel's base_url (a simulator, a local Bot API server) replaces it. */
export const TELEGRAM_BASE_URL = 'https://api.telegram.org';

const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const TelegramSettingsSchema = z.looseObject({
  base_url: z.preprocess(blankAsAbsent, z.url({ protocol: /^https?$/, message: fieldMessage('base_url_invalid') }).optional()),
});
export const TelegramSecretsSchema = z.looseObject({
  /** BotFather's token, `<bot id>:<secret>`. */
  bot_token: z.preprocess(blankAsAbsent, z.string().trim().max(200).optional()),
  /** Ours: given to setWebhook as secret_token, sent back in X-Telegram-Bot-Api-Secret-Token. */
  webhook_secret: z.preprocess(blankAsAbsent, z.string().trim().max(256).optional()),
});
export type TelegramSecrets = z.infer<typeof TelegramSecretsSchema>;

export function baseUrlOf(channel: ChannelTarget): string {
  const parsed = TelegramSettingsSchema.safeParse(channel.config ?? {});
  if (!parsed.success)
    throw new ChannelDeliveryError('permanent', `Channel settings are invalid: ${parsed.error.issues[0]?.message ?? 'base_url'}`);
  return (parsed.data.base_url ?? TELEGRAM_BASE_URL).replace(/\/+$/, '');
}

/** The secrets, or all absent when unreadable: a webhook check must answer false, not throw. */
export function secretsOf(channel: ChannelTarget): TelegramSecrets {
  const parsed = TelegramSecretsSchema.safeParse(channel.credentials ?? {});
  return parsed.success ? parsed.data : {};
}

/** Bot tokens look like `123456:ABC-DEF...`; anything else would change the request path. */
const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;

export function botTokenOf(channel: ChannelTarget): string {
  const token = secretsOf(channel).bot_token;
  if (!token) throw new ChannelDeliveryError('permanent', 'Channel has no bot token configured (bot_token)');
  if (!TOKEN.test(token)) throw new ChannelDeliveryError('permanent', 'The bot token is not a Telegram bot token', 401);
  return token;
}
