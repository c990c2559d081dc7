import type { TemplateCategory, TemplateComponent, TemplateStatus } from '@atende/contract';
import type { ChannelAdapter, ChannelTarget, OutboundTemplate } from '../adapter';
import { isProviderAdapter, type ProviderChannelAdapter } from '../provider';

/**
 * What a WhatsApp provider adapter offers beyond the provider adapter of every channel type
 * (../provider.ts: webhooks, events, media): template management.
 */
export type { InboundEvent, InboundMedia, InboundSender, WebhookRequest } from '../provider';

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

export interface WhatsAppAdapter extends ProviderChannelAdapter {
  /** Template management; `supportsTemplates` false means the calls below throw. */
  readonly supportsTemplates: boolean;
  submitTemplate(template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate>;
  editTemplate(externalId: string | null, template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate>;
  deleteTemplate(externalId: string | null, name: string, channel: ChannelTarget): Promise<void>;
  listTemplates(channel: ChannelTarget): Promise<ProviderTemplate[]>;
}

export const isWhatsAppAdapter = (adapter: ChannelAdapter): adapter is WhatsAppAdapter =>
  isProviderAdapter(adapter) && 'submitTemplate' in adapter;
