import type { ChannelType } from '@atende/contract';
import type { ChannelTarget, OutboundMessage, SendResult, SignatureInput } from '../adapter';
import { request, type HttpAnswer } from '../http';
import { messageBody, providerFailure, providerTemplateOf, sentId, submittedTemplate, templateSubmission } from './cloud-format';
import { parseCloudWebhook } from './cloud-webhook';
import { downloadMedia, mediaHostsOf } from '../provider-media';
import { ProviderAdapter } from '../provider-base';
import { recipientOf } from './provider-adapter';
import { settingsOf, type WhatsAppSettings } from './settings';
import type { InboundEvent, InboundMedia, ProviderTemplate, TemplateDefinition, WebhookRequest, WhatsAppAdapter } from './types';

export type { WhatsAppAdapterOptions } from './provider-adapter';

/**
 * What the Cloud API adapter and 360dialog share: the Cloud API's message, template and webhook
 * formats, calling the provider with its error answers turned into ChannelDeliveryErrors, and
 * downloading media from the provider's hosts only. Subclasses say where and with which auth.
 */
export abstract class CloudFormatAdapter extends ProviderAdapter implements WhatsAppAdapter {
  abstract readonly types: readonly ChannelType[];
  readonly supportsTemplates = true;
  /** The provider's name in error messages. */
  protected abstract readonly provider: string;

  /** The API's base address for this channel (its base_url, or the provider's). */
  protected abstract baseUrl(settings: WhatsAppSettings): string;
  /** The auth headers of every call. */
  protected abstract authHeaders(channel: ChannelTarget): Record<string, string>;
  /** Where messages are posted, and whether the body names messaging_product (Cloud API) or not (on-premise). */
  protected abstract messagesEndpoint(settings: WhatsAppSettings): { url: string; messagingProduct: boolean };
  /** Where templates are listed and submitted. */
  protected abstract templatesUrl(settings: WhatsAppSettings): string;
  /** Hosts media may be downloaded from besides the base_url's. */
  protected abstract readonly mediaHosts: readonly string[];
  /** The address of a media id's bytes (after asking the provider where they are, when needed). */
  protected abstract mediaLocation(media: InboundMedia, channel: ChannelTarget): Promise<{ url: string; contentType: string | null }>;
  abstract verifyHandshake(query: Record<string, string | undefined>, channel: ChannelTarget): string | null;
  abstract verifyWebhook(request: WebhookRequest, channel: ChannelTarget): boolean;
  abstract verifySignature(input: SignatureInput): boolean;
  abstract editTemplate(externalId: string | null, template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate>;
  abstract deleteTemplate(externalId: string | null, name: string, channel: ChannelTarget): Promise<void>;
  /** The address of a template list page: the first, or the one after a page's `after` cursor. */
  protected abstract templateListUrl(settings: WhatsAppSettings, after: string | null): string;
  /** The templates of one list answer, and the cursor of the next page when there is one. */
  protected abstract templatePage(body: unknown): { items: unknown[]; after: string | null };

  /** A JSON call to the provider; a non-2xx answer throws with the provider's code and text. */
  protected async call(
    method: string,
    url: string,
    channel: ChannelTarget,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const answer = await request(
      this.fetchImpl,
      url,
      {
        method,
        headers: {
          ...this.authHeaders(channel),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          'user-agent': 'Atende/1',
          ...headers,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        timeoutMs: this.timeoutMs,
      },
      this.provider,
    );
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw providerFailure(this.provider, answer);
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const endpoint = this.messagesEndpoint(settingsOf(channel));
    const body = messageBody(message, recipientOf(message), { messagingProduct: endpoint.messagingProduct });
    // The message's uuid as idempotency key: a provider (or proxy) that honours it drops a retried duplicate.
    const answer = await this.call('POST', endpoint.url, channel, body, { 'idempotency-key': message.uuid });
    return { externalId: sentId(answer) };
  }

  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'> & { contentType: string }): InboundEvent[] {
    return parseCloudWebhook(request_.rawBody);
  }

  async fetchMedia(
    media: InboundMedia,
    channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    const location = await this.mediaLocation(media, channel);
    const file = await downloadMedia(location.url, {
      ...mediaHostsOf(this.baseUrl(settingsOf(channel)), this.mediaHosts),
      fetchImpl: this.fetchImpl,
      headers: this.authHeaders(channel),
      maxBytes,
      timeoutMs: this.timeoutMs * 3,
      provider: this.provider,
      failure: (answer) => providerFailure(`${this.provider} media`, answer),
    });
    return {
      bytes: file.bytes,
      contentType: file.contentType ?? location.contentType ?? media.contentType ?? 'application/octet-stream',
      filename: media.filename,
    };
  }

  async submitTemplate(template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate> {
    const answer = await this.call('POST', this.templatesUrl(settingsOf(channel)), channel, templateSubmission(template));
    return submittedTemplate(template, answer);
  }

  async listTemplates(channel: ChannelTarget): Promise<ProviderTemplate[]> {
    const settings = settingsOf(channel);
    const templates: ProviderTemplate[] = [];
    let after: string | null = null;
    // Paged; bounded so a misbehaving provider cannot keep us here.
    for (let page = 0; page < 50; page++) {
      const answer = await this.call('GET', this.templateListUrl(settings, after), channel);
      const listed = this.templatePage(answer.json());
      for (const raw of listed.items) {
        const t = providerTemplateOf(raw);
        if (t) templates.push(t);
      }
      if (!listed.after || listed.after === after) break;
      after = listed.after;
    }
    return templates;
  }
}
