import { createHash } from 'node:crypto';
import { channelKind } from '@atende/core';

/**
 * A channel's provider identity (Channel.providerIdentity): the page, account, number or bot by
 * which the provider knows it and routes its webhooks. A partial unique index over live channels
 * (migration 20261202010000) lets one identity belong to one channel of one tenant, so a delivery
 * lands exactly once, whatever path (create, update, setup, seed) wrote the row. Namespaced by
 * provider: the same page may be a Messenger channel and an Instagram channel, never two of either.
 *
 * The backfill in that migration repeats the config-derived rules in SQL; keep the two alike.
 */

type Values = Readonly<Record<string, unknown>>;

export interface IdentitySource {
  id: string;
  type: string;
  /** Channel.config (non-secret settings). */
  config: unknown;
  /** The decrypted credentials (bot_token, api_key), or null. */
  credentials: Values | null;
}

export interface ProviderIdentity {
  identity: string;
  /** The setting an admin changes to pick another identity, for the 409's field (none for e-mail). */
  field: string | null;
}

/** A non-secret provider id as compared: trimmed and lower-cased (Meta and Telegram ids are digits, Twilio SIDs hex). */
const id = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null);
/** A phone number's digits only: '+1 (500) 555-0006', 'whatsapp:+15005550006' and '15005550006' are one number. */
const digits = (value: unknown): string | null => id(value)?.replace(/[^0-9]/g, '') || null;
const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');

type IdentityOf = (settings: Values, secrets: Values, channelId: string) => ProviderIdentity | null;

/** Twilio (SMS, WhatsApp): the account and the sender number, or its messaging service when no number is set. */
const twilio = (kind: 'sms' | 'whatsapp_twilio'): IdentityOf => (settings) => {
  const account = id(settings.account_sid);
  const number = digits(settings.from_number);
  const service = id(settings.messaging_service_sid);
  if (!account || !(number || service)) return null;
  return number ? { identity: `${kind}:${account}:${number}`, field: 'from_number' } : { identity: `${kind}:${account}:${service}`, field: 'messaging_service_sid' };
};

/** The WhatsApp Cloud API's phone-number id, shared by Meta's own API and the {hash} providers speaking it. */
const cloudPhone: IdentityOf = (settings) => {
  const phone = id(settings.phone_number_id);
  return phone ? { identity: `whatsapp:${phone}`, field: 'phone_number_id' } : null;
};

const IDENTITY_OF: Readonly<Record<string, IdentityOf>> = {
  messenger: (settings) => {
    const page = id(settings.page_id);
    return page ? { identity: `messenger:${page}`, field: 'page_id' } : null;
  },
  // The id Meta's Instagram webhooks name the channel by: the professional account once known, else its page.
  instagram: (settings) => {
    const account = id(settings.instagram_account_id);
    if (account) return { identity: `instagram:${account}`, field: 'instagram_account_id' };
    const page = id(settings.page_id);
    return page ? { identity: `instagram:${page}`, field: 'page_id' } : null;
  },
  whatsapp_cloud: cloudPhone,
  '{hash}': cloudPhone,
  // A 360dialog channel is its API key (the webhook is configured per key); only a digest of the secret is kept.
  whatsapp_360dialog: (_settings, secrets) => {
    const key = typeof secrets.api_key === 'string' ? secrets.api_key.trim() : '';
    return key ? { identity: `whatsapp_360dialog:${sha256(key)}`, field: 'api_key' } : null;
  },
  whatsapp_twilio: twilio('whatsapp_twilio'),
  sms: twilio('sms'),
  // A bot has one webhook: its id is the token's part before ':' (a token of another form counts as a whole, digested).
  telegram: (_settings, secrets) => {
    const token = typeof secrets.bot_token === 'string' ? secrets.bot_token.trim() : '';
    if (!token) return null;
    const bot = /^(\d+):/.exec(token)?.[1];
    return { identity: `telegram:${bot ?? sha256(token)}`, field: 'bot_token' };
  },
  // The forwarding address names the channel itself (its uuid), so it is unique by construction; kept for a uniform rule.
  email: (_settings, _secrets, channelId) => ({ identity: `email:${channelId.replace(/-/g, '').toLowerCase()}`, field: null }),
};

/** The channel's provider identity, or null for types routed by nothing but the channel's own id (custom, livechat). */
export function providerIdentity(channel: IdentitySource): ProviderIdentity | null {
  const of = IDENTITY_OF[channelKind(channel.type)];
  const settings = channel.config && typeof channel.config === 'object' ? (channel.config as Values) : {};
  return of ? of(settings, channel.credentials ?? {}, channel.id) : null;
}

/** The identity under which a Meta app webhook entry (entry.id: a page, or an Instagram account) routes. */
export const metaEntryIdentity = (kind: 'messenger' | 'instagram', entryId: string): string => `${kind}:${entryId.trim().toLowerCase()}`;
