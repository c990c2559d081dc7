import { ChannelDeliveryError, type ChannelTarget, type SignatureInput } from '../adapter';
import { headerValue, sameSecret } from '../http';
import { CloudFormatAdapter } from './cloud-base';
import { baseUrlOf, needed, secretsOf, settingsOf, type WhatsAppSettings } from './settings';
import type { InboundMedia, ProviderTemplate, TemplateDefinition, WebhookRequest } from './types';

export const DIALOG360_CLOUD_BASE_URL = 'https://waba-v2.360dialog.io';
export const DIALOG360_ONPREMISE_BASE_URL = 'https://waba.360dialog.io';
/**
 * 360dialog does not sign its webhooks: the channel's webhook is registered with this header
 * carrying the channel's webhook secret, and a delivery without it is refused.
 */
export const DIALOG360_WEBHOOK_HEADER = 'x-atende-webhook-token';
/** The host in the media addresses 360dialog's Cloud API hands out; fetched through 360dialog itself. */
const META_LOOKASIDE_HOST = 'lookaside.fbsbx.com';

/**
 * 360dialog: the Cloud API's formats behind a D360-API-KEY. A channel speaks the on-premise API
 * (/v1/messages, flat webhooks) until `update_to_cloud_api` sets config api_version 'cloud'.
 * 360dialog has no template edit: editing deletes the template and submits it again, so it goes
 * back to PENDING (and its provider id changes).
 */
export class WhatsApp360DialogAdapter extends CloudFormatAdapter {
  readonly types = ['whatsapp_360dialog'] as const;
  protected readonly provider = '360dialog';
  /** Media comes through 360dialog itself (its base address), never from elsewhere. */
  protected readonly mediaHosts = [] as const;

  protected baseUrl(settings: WhatsAppSettings): string {
    return baseUrlOf(settings, settings.api_version === 'cloud' ? DIALOG360_CLOUD_BASE_URL : DIALOG360_ONPREMISE_BASE_URL);
  }

  protected authHeaders(channel: ChannelTarget): Record<string, string> {
    return { 'D360-API-KEY': needed(secretsOf(channel), 'api_key', 'API key') };
  }

  protected messagesEndpoint(settings: WhatsAppSettings) {
    const cloud = settings.api_version === 'cloud';
    return { url: `${this.baseUrl(settings)}${cloud ? '/messages' : '/v1/messages'}`, messagingProduct: cloud };
  }

  protected templatesUrl(settings: WhatsAppSettings): string {
    return `${this.baseUrl(settings)}/v1/configs/templates`;
  }

  protected templateListUrl(settings: WhatsAppSettings, after: string | null): string {
    return `${this.templatesUrl(settings)}?limit=100&offset=${after ?? '0'}`;
  }

  /** Offset paging: {waba_templates, offset, count, total}. */
  protected templatePage(raw: unknown) {
    const body = raw as { waba_templates?: unknown[]; offset?: unknown; total?: unknown } | null;
    const items = body?.waba_templates ?? [];
    const end = Number(body?.offset ?? 0) + items.length;
    return { items, after: items.length > 0 && Number.isFinite(end) && end < Number(body?.total ?? 0) ? String(end) : null };
  }

  /**
   * On-premise: GET /v1/media/{id} answers the bytes. Cloud API: GET /{id} answers a Meta address,
   * whose path 360dialog serves on its own host (the API key does not open Meta's).
   */
  protected async mediaLocation(media: InboundMedia, channel: ChannelTarget) {
    const settings = settingsOf(channel);
    const base = this.baseUrl(settings);
    if (settings.api_version !== 'cloud')
      return { url: `${base}/v1/media/${encodeURIComponent(media.ref)}`, contentType: media.contentType };
    const body = (await this.call('GET', `${base}/${encodeURIComponent(media.ref)}`, channel)).json() as {
      url?: unknown;
      mime_type?: unknown;
    } | null;
    let url = typeof body?.url === 'string' ? body.url : '';
    if (URL.canParse(url)) {
      const parsed = new URL(url);
      if (parsed.hostname === META_LOOKASIDE_HOST) url = `${base}${parsed.pathname}${parsed.search}`;
    }
    return { url, contentType: typeof body?.mime_type === 'string' ? body.mime_type : media.contentType };
  }

  /** 360dialog has no verification handshake. */
  verifyHandshake(): string | null {
    return null;
  }

  verifyWebhook(request: WebhookRequest, channel: ChannelTarget): boolean {
    const secret = secretsOf(channel).webhook_secret;
    return secret !== undefined && this.verifySignature({ rawBody: request.rawBody, headers: request.headers, secret });
  }

  /** The webhook token header against the channel's webhook secret (the body is not signed). */
  verifySignature({ headers, secret }: SignatureInput): boolean {
    return sameSecret(headerValue(headers[DIALOG360_WEBHOOK_HEADER]), secret);
  }

  async editTemplate(externalId: string | null, template: TemplateDefinition, channel: ChannelTarget): Promise<ProviderTemplate> {
    try {
      await this.deleteTemplate(externalId, template.name, channel);
    } catch (error) {
      // Already gone there (say, rejected and removed): submitting is all that is left to do.
      if (!(error instanceof ChannelDeliveryError && error.httpStatus === 404)) throw error;
    }
    return this.submitTemplate(template, channel);
  }

  /** By name: 360dialog deletes every language of it. */
  async deleteTemplate(_externalId: string | null, name: string, channel: ChannelTarget): Promise<void> {
    await this.call('DELETE', `${this.templatesUrl(settingsOf(channel))}/${encodeURIComponent(name)}`, channel);
  }
}
