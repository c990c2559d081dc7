import type { TemplateStatus } from '@atende/contract';
import type { ChannelAdapter, ChannelTarget } from './adapter';

/**
 * What a provider channel adapter (WhatsApp providers, Telegram, SMS, Meta, e-mail) offers beyond
 * sending (adapter.ts): webhook verification and parsing into provider-neutral events, media
 * download from the provider's own hosts, and, where the provider needs it, setting the channel up
 * at the provider (Telegram setWebhook). The api's webhook route
 * and the worker's channel-inbound queue only see these shapes.
 */

/** A provider webhook delivery as the api received it. */
export interface WebhookRequest {
  rawBody: string;
  /** Header names lower-case. */
  headers: Record<string, string | string[] | undefined>;
  /** The full public URL the provider called (Twilio signs it). */
  url: string;
}

/** Media of an inbound message: fetched later through `fetchMedia`, never from an address a sender chose. */
export interface InboundMedia {
  /** Provider media id (Cloud API, 360dialog, Telegram file_id) or the provider-hosted URL (Twilio). */
  ref: string;
  contentType: string | null;
  filename: string | null;
  caption: string | null;
  /** A voice note (Telegram voice, WhatsApp voice): shown as such. */
  voice?: boolean;
}

/**
 * A contact known by a provider id rather than a phone number (Telegram user id): the contact's
 * identity on the channel is `identifier`, its name and username are kept on the contact.
 */
export interface InboundSender {
  identifier: string;
  name: string | null;
  username: string | null;
}

export type InboundEvent =
  | {
      kind: 'message';
      /** The provider's message id: deliveries of the same message carry the same id. */
      externalId: string;
      /** Sender's phone number in E.164 (with +); the provider id when `sender` is set. */
      from: string;
      profileName: string | null;
      /** Set by providers without phone numbers: the contact is found by this identity, not by `from` as a phone. */
      sender?: InboundSender;
      text: string | null;
      media: InboundMedia | null;
      /** A template's quick-reply button pressed (or an interactive reply). */
      button: { text: string; payload: string | null } | null;
      /** The provider id of the message this one replies to (button replies carry it). */
      contextExternalId: string | null;
      at: Date;
      /** Provider details kept on the message (an e-mail's subject, threading headers, sanitised HTML). */
      details?: Record<string, unknown>;
    }
  | {
      kind: 'status';
      /** The provider id of one of our outbound messages (SendResult.externalId). */
      externalId: string;
      status: 'sent' | 'delivered' | 'read' | 'failed';
      error: { code: string; title: string } | null;
      at: Date;
      /** What the provider echoes of ours (WhatsApp Cloud biz_opaque_callback_data): our id of the message (OutboundMessage.uuid). */
      callbackData?: string | null;
    }
  | {
      /** Every message the business sent this contact up to `at` is read (Messenger's read watermark names no message). */
      kind: 'read-up-to';
      /** The contact's provider id (PSID). */
      sender: string;
      at: Date;
    }
  | {
      kind: 'template-status';
      /** Provider template id when it gives one. */
      externalId: string | null;
      name: string;
      language: string | null;
      /** Upper-cased, one (unknown provider values map to the nearest). */
      status: TemplateStatus;
      reason: string | null;
    }
  | {
      /** The channel's link to the provider changed (WhatsApp Web: the QR-linked phone connected or disconnected). */
      kind: 'connection';
      state: 'open' | 'connecting' | 'close';
      /** The provider's reason code, when it gives one (WhatsApp's disconnect reason). */
      reason: number | null;
      at: Date;
    }
  | {
      /** Something the provider reported that is deliberately not taken (a group message, the business's own): logged, nothing stored. */
      kind: 'ignored';
      reason: string;
    };

/** Where the provider must post this channel's webhooks, and the secret it must send back with each. */
export interface WebhookRegistration {
  url: string;
  secret: string;
}

export interface ProviderChannelAdapter extends ChannelAdapter {
  /** GET handshake (Cloud API hub.challenge): the challenge to echo, or null to refuse (403). */
  verifyHandshake(query: Record<string, string | undefined>, channel: ChannelTarget): string | null;
  /** Whether a webhook really comes from the provider for this channel (401 otherwise, nothing changes). */
  verifyWebhook(request: WebhookRequest, channel: ChannelTarget): boolean;
  /**
   * Provider-neutral events of one verified delivery; throws ChannelDeliveryError('permanent') on a
   * malformed body. May answer a promise (e-mail: MIME parsing is asynchronous).
   */
  parseWebhook(
    request: Pick<WebhookRequest, 'rawBody'> & { contentType: string },
    channel: ChannelTarget,
  ): InboundEvent[] | Promise<InboundEvent[]>;
  /** Downloads inbound media from the provider's own hosts only (size-capped). */
  fetchMedia(
    media: InboundMedia,
    channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }>;
  /**
   * Providers configured from our side (Telegram): checks the credentials and registers the webhook,
   * when the channel is created or its credentials change. Throws ChannelDeliveryError; an httpStatus
   * of 401/403/404 means the credentials were refused. Absent for providers configured in their console.
   */
  setUp?(channel: ChannelTarget, webhook: WebhookRegistration): Promise<void>;
  /** The name of a contact known only by a provider id (Messenger PSID), asked once when it first writes; null when not given. */
  senderName?(identifier: string, channel: ChannelTarget): Promise<string | null>;
}

export const isProviderAdapter = (adapter: ChannelAdapter): adapter is ProviderChannelAdapter => 'parseWebhook' in adapter;
