import type { ChannelType } from '@atende/contract';

/**
 * What every channel adapter (custom API channel now; WhatsApp providers, Telegram, ... later)
 * offers the worker. The worker loads the message and the channel, the adapter only speaks the
 * provider's protocol.
 */

/** An agent's message, as the worker hands it to an adapter. */
export interface OutboundMessage {
  uuid: string;
  conversationUuid: string;
  content: string;
  /**
   * The attachment: a signed link to it, and (in the worker) its bytes read from storage, for
   * providers that take uploads rather than links (Telegram).
   */
  annex: { url: string; contentType: string; originalFilename: string; size?: number; read?: () => Promise<Buffer> } | null;
  /** Recorded as a voice note in the composer (providers with voice notes show it as one). */
  voice?: boolean;
  author: 'USER' | 'CONTACT' | 'SYSTEM';
  createdAt: Date;
  contact: { uuid: string; phoneNumber: string | null; identifier: string | null };
  /** When the contact last wrote on this channel: set for channel types with a reply window (Meta's 24 hours). */
  lastContactMessageAt?: Date | null;
  /**
   * A template message (outbound start, campaigns): the provider's template type with its
   * parameters. `content` then holds the rendered text, for providers without templates.
   */
  template?: OutboundTemplate | null;
  /**
   * E-mail threading: the subject of the conversation's thread and the
   * Message-IDs of its earlier messages, oldest first (the last is the one answered). `fresh`: the
   * subject is a new e-mail's own (an agent started the conversation), sent without "Re:".
   */
  thread?: { subject: string | null; references: string[]; fresh?: boolean } | null;
}

export interface OutboundTemplate {
  name: string;
  language: string;
  /** Header parameter: text, or a media link (IMAGE/VIDEO/DOCUMENT). */
  header: { format: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT'; value: string } | null;
  /** Body parameters {{1}}, {{2}}, ... in order. */
  body: string[];
  /** URL buttons' dynamic suffix, by button index. */
  urlButtons: { index: number; text: string }[];
}

/** The channel a message leaves through: its non-secret config and its decrypted credentials. */
export interface ChannelTarget {
  uuid: string;
  type: string;
  /** Channel.config as stored (non-secret settings such as webhook_url); the adapter validates it. */
  config: unknown;
  /** Channel.credentialsEncrypted, decrypted and parsed; null when none are stored. */
  credentials: Record<string, unknown> | null;
  /** Where the provider posts this channel's webhooks (the worker sets it): Twilio SMS asks for status callbacks there. */
  webhookUrl?: string;
}

export interface SendResult {
  /** The provider's id for the message, when it gave one (later status updates refer to it). */
  externalId: string | null;
}

export interface SignatureInput {
  rawBody: string | Buffer;
  headers: Record<string, string | string[] | undefined>;
  secret: string;
}

export interface ChannelAdapter {
  /** Channel types (Channel.type; a {hash} digest counts as HASH_CHANNEL_KIND) this adapter serves. */
  readonly types: readonly ChannelType[];
  /** Delivers one message; throws ChannelDeliveryError, saying whether a retry may succeed. */
  send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult>;
  /** Whether a request really comes from the holder of `secret` (header names are lower-case). */
  verifySignature(input: SignatureInput): boolean;
}

/**
 * A delivery that did not happen, or may have. `transient` failures (network, time-out, 5xx, 408,
 * 429) may succeed later; `permanent` ones (bad configuration, other 4xx) never succeed by retrying.
 *
 * `outcomeUnknown`: the request may have reached the provider and been taken (a time-out or a
 * connection lost after the request was written, a gateway's 502/504, an accepted answer cut off).
 * The providers we send through do not drop a repeated request, so such a send is never retried
 * automatically: a retry could be a second (paid) message. Without it the provider did not take
 * the message (it was not reached, or it answered with its own error).
 */
export class ChannelDeliveryError extends Error {
  readonly outcomeUnknown: boolean;

  constructor(
    readonly kind: 'transient' | 'permanent',
    message: string,
    readonly httpStatus?: number,
    options: { outcomeUnknown?: boolean } = {},
  ) {
    super(message);
    this.name = 'ChannelDeliveryError';
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }

  get transient(): boolean {
    return this.kind === 'transient';
  }
}
