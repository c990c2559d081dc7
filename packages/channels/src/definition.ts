import type { ChannelType } from '@atende/contract';
import type { z } from 'zod';
import type { ChannelAdapter } from './adapter';
import type { CustomChannelAdapterOptions } from './custom/adapter';
import type { EmailAdapterOptions } from './email/adapter';
import type { OutboundClient } from './outbound';
import type { ProviderAdapterOptions } from './provider-base';

/**
 * One channel type, or one provider family serving several (the custom API channel's three names,
 * the Cloud API's whatsapp_cloud and {hash}), in one place: its folder's definition.ts, listed once
 * in registry.ts. The api, the worker and the webhook route look a channel's type up here rather
 * than comparing type names. What the web must know as well (how inbound arrives, capabilities,
 * required settings, a setup screen) is the type's row in the contract's CHANNEL_TYPE_FACTS.
 * Webhook verification is the adapter's (ProviderChannelAdapter verifyHandshake and verifyWebhook).
 * docs/channels.md "Adding a channel type" walks through a new one.
 */

/** Settings (Channel.config) or decrypted secrets as stored: strings by name. */
export type ChannelValues = Readonly<Record<string, unknown>>;

/** The options of channelAdapters(): the guarded outbound client, then per type or provider family. */
export interface ChannelAdapterOptions {
  /** The guarded client of every adapter (OUTBOUND_ALLOW_HOSTS); strict (public addresses only) by default. */
  outbound?: OutboundClient;
  custom?: CustomChannelAdapterOptions;
  /** Defaults for the three WhatsApp providers; each provider's own options below win. */
  whatsapp?: ProviderAdapterOptions;
  whatsappCloud?: ProviderAdapterOptions;
  whatsapp360dialog?: ProviderAdapterOptions;
  whatsappTwilio?: ProviderAdapterOptions;
  telegram?: ProviderAdapterOptions;
  sms?: ProviderAdapterOptions;
  /** WhatsApp Web through an Evolution API v2 bridge. */
  whatsappWeb?: ProviderAdapterOptions;
  /** Messenger and Instagram (Meta's Messenger Platform). */
  meta?: ProviderAdapterOptions;
  email?: Omit<EmailAdapterOptions, 'outbound'>;
}

/**
 * A channel's provider identity (Channel.providerIdentity): the page, account, number or bot by
 * which the provider knows it and routes its webhooks; one live channel of one tenant holds it.
 */
export interface ProviderIdentity {
  identity: string;
  /** The setting an admin changes to pick another identity, for the 409's field (none for e-mail). */
  field: string | null;
}

/** What a definition's creation hook may read and fill while a channel is created. */
export interface ChannelCreation {
  /** The new channel's id (not stored yet). */
  id: string;
  settings: Record<string, string>;
  /** The secrets to store: a hook may add the ones we generate (webhook_secret). */
  secrets: Record<string, string>;
  /** A new random secret. */
  newSecret: () => string;
  /** EMAIL_INBOUND_DOMAIN: the domain of e-mail forwarding addresses. */
  emailInboundDomain: string;
}

export interface ChannelDefinition {
  /** The channel types served; their stored names (a {hash} digest counts as HASH_CHANNEL_KIND). */
  readonly types: readonly ChannelType[];
  /** The non-secret settings the adapter reads (Channel.config); the contract's fields are what the api takes. */
  readonly settingsSchema: z.ZodType;
  /** The secrets the adapter reads (Channel.credentialsEncrypted, decrypted). */
  readonly secretsSchema: z.ZodType;
  /** The one adapter of these types, sending and (for providers) verifying and parsing webhooks. */
  createAdapter(options: ChannelAdapterOptions): ChannelAdapter;
  /**
   * What must be unique across tenants (the page, number, account or bot the provider routes by),
   * or null while the settings do not name it yet. Absent: routed by the channel's own id only.
   * The migration that added Channel.providerIdentity repeats the config-derived rules in SQL.
   */
  identity?(settings: ChannelValues, secrets: ChannelValues, channelId: string): ProviderIdentity | null;
  /**
   * At creation, before the channel's settings are checked complete: generates the secrets of ours
   * the type needs (webhook_secret) and answers the value shown once to the admin, if any.
   */
  onCreate?(creation: ChannelCreation): string | null;
  /**
   * The address of ours contacts' messages reach the channel at, when it carries the channel's
   * secret (e-mail's forwarding address): shown again to those who manage channels, never listed
   * to others.
   */
  inboundAddress?(channel: { id: string; secrets: Readonly<Record<string, unknown>>; emailInboundDomain: string }): string | null;
  /** The webhook secret is ours, never one an admin types (a new one comes with every setUp). */
  readonly ownsWebhookSecret?: boolean;
  /** Changes that set the channel up at the provider again (adapter setUp, with a new webhook secret). */
  readonly setUpAgainOn?: { settings?: readonly string[]; secrets?: readonly string[] };
  /** A setting the adapter would refuse (422 before storing), or null. */
  settingsIssue?(settings: Readonly<Record<string, string>>): { path: string; message: string } | null;
  /** Settings naming a server the channel connects to by host name (smtp_host): checked against OUTBOUND_ALLOW_HOSTS. */
  readonly hostSettings?: readonly string[];
  /** What Channel.config starts with besides the settings (the livechat appearance, 360dialog's api_version). */
  initialConfig?(channel: { name: string }): Record<string, unknown>;
  /** Channels with an API version to show (360dialog on-premise until moved to the Cloud API). */
  apiVersionOf?(config: ChannelValues): 'onpremise' | 'cloud';
  /** Channels with a livechat appearance (theme, widget settings, custom fields). */
  readonly hasAppearance?: boolean;
  /** Inbound: the sender's identifier is an e-mail address, also kept as the contact's e-mail. */
  readonly senderIsEmail?: boolean;
  /** Inbound: what a sender known only by a provider id is called when the provider gives no name. */
  readonly unnamedSender?: string;
  /** Outbound: messages carry the conversation's e-mail thread (subject, Message-IDs). */
  readonly emailThreads?: boolean;
}
