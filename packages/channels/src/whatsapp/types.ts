import type { TemplateCategory, TemplateComponent, TemplateStatus } from '@atende/contract';
import type { ChannelAdapter, ChannelTarget, OutboundTemplate } from '../adapter';

/**
 * What a WhatsApp provider adapter offers beyond sending (packages/channels/src/adapter.ts):
 * webhook verification and parsing into provider-neutral events, media download from the
 * provider's own hosts, and template management. The api and worker only see these shapes.
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
  /** Provider media id (Cloud API, 360dialog) or the provider-hosted URL (Twilio). */
  ref: string;
  contentType: string | null;
  filename: string | null;
  caption: string | null;
}

export type InboundEvent =
  | {
      kind: 'message';
      /** The provider's message id: deliveries of the same message carry the same id. */
      externalId: string;
      /** Sender's phone number in E.164 (with +). */
      from: string;
      profileName: string | null;
      text: string | null;
      media: InboundMedia | null;
      /** A template's quick-reply button pressed (or an interactive reply). */
      button: { text: string; payload: string | null } | null;
      /** The provider id of the message this one replies to (button replies carry it). */
      contextExternalId: string | null;
      at: Date;
    }
  | {
      kind: 'status';
      /** The provider id of one of our outbound messages (SendResult.externalId). */
      externalId: string;
      status: 'sent' | 'delivered' | 'read' | 'failed';
      error: { code: string; title: string } | null;
      at: Date;
    }
  | {
      kind: 'template-status';
      /** Provider template id when it gives one. */
      externalId: string | null;
      name: string;
      language: string | null;
      /** Upper-cased, one of spec 002 §3 (unknown provider values map to the nearest). */
      status: TemplateStatus;
      reason: string | null;
    };

/** A template as the provider knows it (listing, submission answers). */
export interface ProviderTemplate {
  externalId: string | null;
  name: string;
  language: string;
  category: TemplateCategory | null;
  status: TemplateStatus;
  reason: string | null;
}

export interface TemplateDefinition {
  name: string;
  language: string;
  category: TemplateCategory;
  components: TemplateComponent[];
}

/**
 * An outbound template that also carries the provider's id of the template, when known
 * (ProviderTemplate.externalId): Twilio sends it as ContentSid instead of the rendered text.
 */
export interface ProviderOutboundTemplate extends OutboundTemplate {
  externalId?: string | null;
}

export interface WhatsAppAdapter extends ChannelAdapter {
  /** GET handshake (Cloud API hub.challenge): the challenge to echo, or null to refuse (403). */
  verifyHandshake(query: Record<string, string | undefined>, channel: ChannelTarget): string | null;
  /** Whether a webhook really comes from the provider for this channel (401 otherwise, nothing changes). */
  verifyWebhook(request: WebhookRequest, channel: ChannelTarget): boolean;
  /** Provider-neutral events of one verified delivery; throws ChannelDeliveryError('permanent') on a malformed body. */
  parseWebhook(request: Pick<WebhookRequest, 'rawBody'> & { contentType: string }, channel: ChannelTarget): InboundEvent[];
  /** Downloads inbound media from the provider's own hosts only (size-capped). */
  fetchMedia(media: InboundMedia, channel: ChannelTarget, maxBytes: number): Promise<{ bytes: Buffer; contentType: string; filename: string | null }>;
  /** Template management; `supportsTemplates` false means the calls below throw. */
  readonly supportsTemplates: boolean;
  submitTemplate(template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate>;
  editTemplate(externalId: string | null, template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate>;
  deleteTemplate(externalId: string | null, name: string, channel: ChannelTarget): Promise<void>;
  listTemplates(channel: ChannelTarget): Promise<ProviderTemplate[]>;
}

export const isWhatsAppAdapter = (adapter: ChannelAdapter): adapter is WhatsAppAdapter => 'parseWebhook' in adapter;
