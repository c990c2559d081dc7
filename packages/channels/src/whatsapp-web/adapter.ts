import type { WhatsAppWebConnection } from '@atende/contract';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type SendResult, type SignatureInput } from '../adapter';
import { cleanProviderText, headerValue, isAmbiguousStatus, isTransientStatus, request, sameSecret, type HttpAnswer } from '../http';
import { statusLine } from '../outbound';
import type { InboundEvent, InboundMedia, ProviderChannelAdapter, WebhookRegistration, WebhookRequest } from '../provider';
import { ProviderAdapter } from '../provider-base';
import { recipientOf } from '../whatsapp/provider-adapter';
import { bridgeOf, secretsOf, WhatsAppWebSettingsSchema, type BridgeAddress } from './settings';
import { parseWhatsAppWebWebhook } from './webhook';

/** The bridge events the channel's webhook is set up for: contacts' messages, our receipts, the phone's connection. */
export const WHATSAPP_WEB_EVENTS = ['MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'CONNECTION_UPDATE', 'QRCODE_UPDATED'] as const;

/** A QR image as the bridge gives it (a PNG data URL, or its bare base64), bounded, or null. */
const QR_MAX = 200_000;
function qrDataUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > QR_MAX) return null;
  const base64 = raw.startsWith('data:image/png;base64,') ? raw.slice('data:image/png;base64,'.length) : raw;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(base64) && base64.length > 0 ? `data:image/png;base64,${base64}` : null;
}

const stateOf = (raw: unknown): WhatsAppWebConnection['state'] => (raw === 'open' || raw === 'connecting' ? raw : 'close');

/**
 * The bridge's error answer, `{status, error, response: {message}}` (message: a text, texts, or for
 * a number not on WhatsApp `[{exists: false, number}]`), as a ChannelDeliveryError: 401, 403, 404
 * (wrong key, unknown instance) and 400 are permanent, 5xx and 408/429 transient.
 */
export function bridgeFailure(what: string, answer: HttpAnswer): ChannelDeliveryError {
  const body = answer.json() as { error?: unknown; response?: { message?: unknown } } | null;
  const raw = body?.response?.message;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((m): string[] => {
    if (typeof m === 'string') return [m];
    const item = m as { exists?: unknown; number?: unknown } | null;
    if (item && item.exists === false) return [`${typeof item.number === 'string' ? item.number : 'the number'} is not on WhatsApp`];
    return [];
  });
  const text = cleanProviderText(parts.join('; ') || (typeof body?.error === 'string' ? body.error : ''));
  return new ChannelDeliveryError(
    isTransientStatus(answer.status) ? 'transient' : 'permanent',
    `${what} answered ${text ? `${answer.status}: ${text}` : statusLine(answer.status)}`,
    answer.status,
    { outcomeUnknown: isAmbiguousStatus(answer.status) },
  );
}

/** sendMedia's kinds; any other file goes as a document. */
const mediaTypeOf = (contentType: string): 'image' | 'video' | 'document' =>
  contentType.startsWith('image/') ? 'image' : contentType.startsWith('video/') ? 'video' : 'document';

/**
 * WhatsApp Web through a bridge speaking the Evolution API v2 (REST with an `apikey` header, webhooks
 * per instance; fixtures/provider-docs/whatsapp-web/README.md): a phone linked by QR code to the
 * bridge's instance. Text by sendText, files by link with sendMedia, voice notes by
 * sendWhatsAppAudio; the contacts' files are fetched from the bridge (getBase64FromMediaMessage).
 * setUp points the instance's webhook at the channel with a secret of ours in its Authorization
 * header. The bridge has no templates: a template message goes as its rendered text.
 */
export class WhatsAppWebAdapter extends ProviderAdapter implements ProviderChannelAdapter {
  readonly types = ['whatsapp_web'] as const;

  /** One bridge call for the channel's instance; a non-2xx answer throws. */
  private async call(
    bridge: BridgeAddress,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    limits: { timeoutMs?: number; maxBytes?: number } = {},
  ): Promise<HttpAnswer> {
    const answer = await request(
      this.fetchImpl,
      `${bridge.base}/${path}/${encodeURIComponent(bridge.instance)}`,
      {
        method,
        headers: {
          apikey: bridge.apiKey,
          'user-agent': 'Atende/1',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        timeoutMs: limits.timeoutMs ?? this.timeoutMs,
        maxBytes: limits.maxBytes,
      },
      'WhatsApp Web bridge',
    );
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw bridgeFailure('WhatsApp Web bridge', answer);
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const bridge = bridgeOf(channel);
    const number = recipientOf(message);
    // Templates exist only on the WhatsApp Business Platform: the rendered body goes as text.
    const text = message.content.trim();
    let answer: HttpAnswer;
    const annex = message.annex;
    if (annex) {
      const type = (annex.contentType.split(';')[0] ?? '').trim().toLowerCase();
      if (message.voice === true && type.startsWith('audio/')) {
        // A voice note carries no caption on WhatsApp.
        answer = await this.call(bridge, 'POST', 'message/sendWhatsAppAudio', { number, audio: annex.url });
      } else {
        const mediatype = mediaTypeOf(type);
        answer = await this.call(bridge, 'POST', 'message/sendMedia', {
          number,
          mediatype,
          mimetype: type,
          caption: text,
          media: annex.url,
          fileName: annex.originalFilename,
        });
      }
    } else {
      if (!text) throw new ChannelDeliveryError('permanent', 'WhatsApp does not take empty messages');
      answer = await this.call(bridge, 'POST', 'message/sendText', { number, text });
    }
    const sent = answer.json() as { key?: { id?: unknown } } | null;
    const id = sent?.key?.id;
    return { externalId: typeof id === 'string' && id ? id.slice(0, 200) : null };
  }

  /**
   * Points the instance's webhook at the channel: its address, our secret as a Bearer Authorization
   * header, the events read, no base64 media. The body carries the webhook both nested (as the bridge
   * validates it) and flat (as the bridge's API reference shows it), so either reading sets the same.
   * A wrong key (401) or an unknown instance (404) refuses the channel's settings.
   */
  async setUp(channel: ChannelTarget, webhook: WebhookRegistration): Promise<void> {
    const bridge = bridgeOf(channel);
    const events = [...WHATSAPP_WEB_EVENTS];
    await this.call(bridge, 'POST', 'webhook/set', {
      webhook: {
        enabled: true,
        url: webhook.url,
        headers: { authorization: `Bearer ${webhook.secret}` },
        byEvents: false,
        base64: false,
        events,
      },
      enabled: true,
      url: webhook.url,
      webhookByEvents: false,
      webhookBase64: false,
      events,
    });
  }

  /** The phone's state and, when it is not connected, the QR code to link it (asking for one starts the linking). */
  async connection(channel: ChannelTarget): Promise<WhatsAppWebConnection> {
    const bridge = bridgeOf(channel);
    const current = (await this.call(bridge, 'GET', 'instance/connectionState')).json() as { instance?: { state?: unknown } } | null;
    const state = stateOf(current?.instance?.state);
    if (state === 'open') return { state, qr: null, code: null };
    const connect = (await this.call(bridge, 'GET', 'instance/connect', undefined, { maxBytes: QR_MAX * 2 })).json() as {
      base64?: unknown;
      code?: unknown;
      instance?: { state?: unknown };
    } | null;
    // Linked meanwhile: the bridge answers the state instead of a code.
    if (connect?.instance?.state === 'open') return { state: 'open', qr: null, code: null };
    const qr = qrDataUrl(connect?.base64);
    // The reference shows the code's text only; the bridge adds its picture (base64).
    const code = typeof connect?.code === 'string' && connect.code.length <= 2000 ? connect.code : null;
    return { state: (qr || code) && state === 'close' ? 'connecting' : state, qr, code };
  }

  verifyHandshake(): string | null {
    // The bridge makes no verification handshake.
    return null;
  }

  /**
   * A delivery from the channel's bridge carries our webhook secret in its Authorization header (set
   * by setUp), or, from a bridge that shows it, the instance's API key in the body's `apikey`; either
   * is compared in constant time.
   */
  verifyWebhook(request_: WebhookRequest, channel: ChannelTarget): boolean {
    const secrets = secretsOf(channel);
    if (
      secrets.webhook_secret &&
      this.verifySignature({ rawBody: request_.rawBody, headers: request_.headers, secret: secrets.webhook_secret })
    )
      return true;
    if (!secrets.api_key) return false;
    let body: { apikey?: unknown } | null = null;
    try {
      body = JSON.parse(request_.rawBody) as { apikey?: unknown } | null;
    } catch {
      return false;
    }
    return sameSecret(body?.apikey, secrets.api_key);
  }

  /** The Authorization header set with the webhook: `Bearer <secret>`. */
  verifySignature({ headers, secret }: SignatureInput): boolean {
    return sameSecret(headerValue(headers.authorization), `Bearer ${secret}`);
  }

  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'>, channel: ChannelTarget): InboundEvent[] {
    const settings = WhatsAppWebSettingsSchema.safeParse(channel.config ?? {});
    return parseWhatsAppWebWebhook(request_.rawBody, settings.success ? (settings.data.instance ?? '') : '');
  }

  /** The bridge downloads and decrypts a message's file from WhatsApp and answers it in base64. */
  async fetchMedia(
    media: InboundMedia,
    channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    const bridge = bridgeOf(channel);
    const answer = await this.call(
      bridge,
      'POST',
      'chat/getBase64FromMediaMessage',
      { message: { key: { id: media.ref } }, convertToMp4: false },
      // Base64 is a third bigger than the bytes, plus the answer's other fields.
      { timeoutMs: this.timeoutMs * 3, maxBytes: Math.ceil((maxBytes * 4) / 3) + 64 * 1024 },
    );
    const body = answer.json() as { base64?: unknown; mimetype?: unknown; fileName?: unknown } | null;
    if (typeof body?.base64 !== 'string' || !body.base64)
      throw new ChannelDeliveryError('permanent', 'The bridge gave no file for the message');
    const bytes = Buffer.from(body.base64, 'base64');
    if (bytes.length > maxBytes) throw new ChannelDeliveryError('permanent', `WhatsApp file larger than ${maxBytes} bytes`);
    const mimetype = typeof body.mimetype === 'string' ? body.mimetype.split(';')[0]!.trim() : '';
    return {
      bytes,
      contentType: media.contentType ?? (mimetype || 'application/octet-stream'),
      filename: media.filename ?? (typeof body.fileName === 'string' ? body.fileName.slice(0, 200) : null),
    };
  }
}
