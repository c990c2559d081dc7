import type { ProviderIdentity } from './definition';
import { channelDefinition } from './registry';

/**
 * A channel's provider identity (Channel.providerIdentity): the page, account, number or bot by
 * which the provider knows it and routes its webhooks. A partial unique index over live channels
 * (migration 20261202010000) lets one identity belong to one channel of one tenant, so a delivery
 * lands exactly once, whatever path (create, update, setup, seed) wrote the row. Namespaced by
 * provider: the same page may be a Messenger channel and an Instagram channel, never two of either.
 * Each type's rule is its definition's `identity` (identity-rules.ts has the shared pieces).
 */

export type { ProviderIdentity } from './definition';

export interface IdentitySource {
  id: string;
  type: string;
  /** Channel.config (non-secret settings). */
  config: unknown;
  /** The decrypted credentials (bot_token, api_key), or null. */
  credentials: Readonly<Record<string, unknown>> | null;
}

/** The channel's provider identity, or null for types routed by nothing but the channel's own id (custom, livechat). */
export function providerIdentity(channel: IdentitySource): ProviderIdentity | null {
  const identity = channelDefinition(channel.type)?.identity;
  const settings = channel.config && typeof channel.config === 'object' ? (channel.config as Readonly<Record<string, unknown>>) : {};
  return identity ? identity(settings, channel.credentials ?? {}, channel.id) : null;
}

/** The identity under which a Meta app webhook entry (entry.id: a page, or an Instagram account) routes. */
export const metaEntryIdentity = (kind: 'messenger' | 'instagram', entryId: string): string => `${kind}:${entryId.trim().toLowerCase()}`;
