import { HASH_CHANNEL_KIND } from '@atende/contract';
import type { ChannelTarget, SignatureInput } from '../adapter';
import { GRAPH_BASE_URL, GRAPH_VERSION, hubChallenge, hubSignature, META_MEDIA_HOSTS, verifyHubSignature } from '../meta/graph';
import { CloudFormatAdapter } from './cloud-base';
import { baseUrlOf, needed, secretsOf, settingsOf, type WhatsAppSettings } from './settings';
import type { InboundMedia, ProviderTemplate, TemplateDefinition, WebhookRequest } from './types';

export const CLOUD_API_BASE_URL = GRAPH_BASE_URL;
export const CLOUD_API_VERSION = GRAPH_VERSION;
export { hubSignature, META_MEDIA_HOSTS };
const TEMPLATE_FIELDS = 'id,name,language,status,category,rejected_reason,components';

/**
 * The WhatsApp Cloud API (Meta Graph API), also spoken by the {hash} providers: messages from the
 * channel's phone number id, templates of its WhatsApp Business Account, webhooks signed with the
 * app secret (X-Hub-Signature-256) after a one-time GET handshake with the verify token.
 */
export class WhatsAppCloudAdapter extends CloudFormatAdapter {
  readonly types = ['whatsapp_cloud', HASH_CHANNEL_KIND] as const;
  protected readonly provider = 'WhatsApp Cloud API';
  protected readonly mediaHosts = META_MEDIA_HOSTS;

  protected baseUrl(settings: WhatsAppSettings): string {
    return baseUrlOf(settings, CLOUD_API_BASE_URL);
  }

  private graph(settings: WhatsAppSettings): string {
    return `${this.baseUrl(settings)}/${settings.graph_version ?? CLOUD_API_VERSION}`;
  }

  protected authHeaders(channel: ChannelTarget): Record<string, string> {
    return { authorization: `Bearer ${needed(secretsOf(channel), 'access_token', 'access token')}` };
  }

  protected messagesEndpoint(settings: WhatsAppSettings) {
    const phone = needed(settings, 'phone_number_id', 'phone number id');
    return { url: `${this.graph(settings)}/${encodeURIComponent(phone)}/messages`, messagingProduct: true };
  }

  protected templatesUrl(settings: WhatsAppSettings): string {
    return `${this.graph(settings)}/${encodeURIComponent(needed(settings, 'waba_id', 'WhatsApp Business Account id'))}/message_templates`;
  }

  /** GET {graph}/{media_id} answers where the bytes are ({url, mime_type}); downloadMedia checks that address. */
  protected async mediaLocation(media: InboundMedia, channel: ChannelTarget) {
    const answer = await this.call('GET', `${this.graph(settingsOf(channel))}/${encodeURIComponent(media.ref)}`, channel);
    const body = answer.json() as { url?: unknown; mime_type?: unknown } | null;
    return { url: typeof body?.url === 'string' ? body.url : '', contentType: typeof body?.mime_type === 'string' ? body.mime_type : null };
  }

  verifyHandshake(query: Record<string, string | undefined>, channel: ChannelTarget): string | null {
    return hubChallenge(query, secretsOf(channel).verify_token);
  }

  verifyWebhook(request: WebhookRequest, channel: ChannelTarget): boolean {
    const secret = secretsOf(channel).app_secret;
    return secret !== undefined && this.verifySignature({ rawBody: request.rawBody, headers: request.headers, secret });
  }

  verifySignature({ rawBody, headers, secret }: SignatureInput): boolean {
    return verifyHubSignature(rawBody, headers, secret);
  }

  protected templateListUrl(settings: WhatsAppSettings, after: string | null): string {
    const query = new URLSearchParams({ limit: '100', fields: TEMPLATE_FIELDS, ...(after ? { after } : {}) });
    return `${this.templatesUrl(settings)}?${query.toString()}`;
  }

  /** Graph paging: a `next` link means there is a page after the `after` cursor. */
  protected templatePage(raw: unknown) {
    const body = raw as { data?: unknown[]; paging?: { cursors?: { after?: string }; next?: string } } | null;
    return { items: body?.data ?? [], after: (body?.paging?.next && body.paging.cursors?.after) || null };
  }

  /**
   * POST {graph}/{template_id} with the new components (the category is left as Meta has it);
   * without an id there is nothing to edit there, so it is submitted.
   */
  async editTemplate(externalId: string | null, template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate> {
    if (!externalId) return this.submitTemplate(template, channel);
    await this.call('POST', `${this.graph(settingsOf(channel))}/${encodeURIComponent(externalId)}`, channel, {
      components: template.components,
    });
    return { externalId, name: template.name, language: template.language, category: template.category, status: 'PENDING', reason: null };
  }

  /** DELETE by name (every language), narrowed to one template when its id is known. */
  async deleteTemplate(externalId: string | null, name: string, channel: ChannelTarget): Promise<void> {
    const query = new URLSearchParams({ name, ...(externalId ? { hsm_id: externalId } : {}) });
    await this.call('DELETE', `${this.templatesUrl(settingsOf(channel))}?${query.toString()}`, channel);
  }
}
