import { createHmac } from 'node:crypto';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type OutboundTemplate, type SendResult, type SignatureInput } from '../adapter';
import { cleanProviderText, headerValue, isTransientStatus, request, sameSecret, type HttpAnswer } from '../http';
import { statusLine } from '../outbound';
import { downloadMedia, mediaHostsOf } from './media';
import { ProviderAdapter, recipientOf } from './provider-adapter';
import { baseUrlOf, needed, secretsOf, settingsOf } from './settings';
import type { InboundEvent, InboundMedia, ProviderOutboundTemplate, ProviderTemplate, WebhookRequest, WhatsAppAdapter } from './types';

export const TWILIO_BASE_URL = 'https://api.twilio.com';
/** Where Twilio serves media ('.x' = any subdomain of x). */
export const TWILIO_MEDIA_HOSTS = ['api.twilio.com', '.twiliocdn.com'] as const;
/** verifySignature's input carries the URL Twilio called (part of what it signs) under this header name. */
export const TWILIO_URL_HEADER = 'x-atende-url';

/** X-Twilio-Signature: base64 HMAC-SHA1 (auth token) of the URL followed by each POST parameter's name and value, sorted by name. */
export function twilioSignature(url: string, params: URLSearchParams | Record<string, string>, authToken: string): string {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const data = url + entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}${v}`).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** MessageStatus values that are news for a message; queued, accepted, sending, ... are not. */
const DELIVERY_STATUS: Record<string, 'sent' | 'delivered' | 'read' | 'failed' | undefined> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
  undelivered: 'failed',
};

/** A non-2xx answer ({code, message, more_info, status}) as a ChannelDeliveryError naming Twilio's code and text. */
function twilioFailure(answer: HttpAnswer, what = 'Twilio'): ChannelDeliveryError {
  const body = answer.json() as { code?: unknown; message?: unknown } | null;
  // Twilio's documented error message only; never the raw body.
  const text = cleanProviderText(typeof body?.message === 'string' ? body.message : '');
  const detail = [typeof body?.code === 'number' ? `(#${String(body.code)})` : '', text].filter(Boolean).join(' ');
  const kind = isTransientStatus(answer.status) || body?.code === 20429 ? 'transient' : 'permanent';
  return new ChannelDeliveryError(kind, detail ? `${what} answered ${answer.status}: ${detail}` : `${what} answered ${statusLine(answer.status)}`, answer.status);
}

/** The template's Content SID when the worker passed one (ProviderOutboundTemplate.externalId). */
function contentSidOf(template: OutboundTemplate): string | null {
  const id = (template as ProviderOutboundTemplate).externalId;
  return typeof id === 'string' && /^HX[0-9a-f]{32}$/i.test(id) ? id : null;
}

/**
 * Twilio's WhatsApp: the Messages API (form-encoded, basic auth account_sid:auth_token); inbound
 * messages and status callbacks posted form-encoded and signed with the auth token over the
 * webhook's URL and parameters. Templates live in Twilio's Content API and are managed in the Twilio
 * console: a template message goes by its Content SID when known, else as its rendered text.
 */
export class WhatsAppTwilioAdapter extends ProviderAdapter implements WhatsAppAdapter {
  readonly types = ['whatsapp_twilio'] as const;
  readonly supportsTemplates = false;

  private account(channel: ChannelTarget): { sid: string; authorization: string } {
    const sid = needed(settingsOf(channel), 'account_sid', 'account SID');
    const token = needed(secretsOf(channel), 'auth_token', 'auth token');
    return { sid, authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const settings = settingsOf(channel);
    const { sid, authorization } = this.account(channel);
    const params = new URLSearchParams({ To: `whatsapp:+${recipientOf(message)}` });
    if (settings.messaging_service_sid) params.set('MessagingServiceSid', settings.messaging_service_sid);
    else params.set('From', `whatsapp:${needed(settings, 'from_number', 'sender number').replace(/^whatsapp:/, '')}`);
    const contentSid = message.template ? contentSidOf(message.template) : null;
    if (message.template && contentSid) {
      // Content variables are numbered as the template's body parameters {{1}}, {{2}}, ...
      params.set('ContentSid', contentSid);
      params.set('ContentVariables', JSON.stringify(Object.fromEntries(message.template.body.map((v, i) => [String(i + 1), v]))));
    } else {
      params.set('Body', message.content);
      if (message.annex) params.set('MediaUrl', message.annex.url);
    }
    const answer = await request(
      this.fetchImpl,
      `${baseUrlOf(settings, TWILIO_BASE_URL)}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
      {
        method: 'POST',
        // The message's uuid as idempotency key: a proxy or simulator that honours it drops a retried duplicate.
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Atende/1', 'idempotency-key': message.uuid },
        body: params.toString(),
        timeoutMs: this.timeoutMs,
      },
      'Twilio',
    );
    if (answer.status < 200 || answer.status >= 300) throw twilioFailure(answer);
    const sidOut = (answer.json() as { sid?: unknown } | null)?.sid;
    return { externalId: typeof sidOut === 'string' && sidOut ? sidOut : null };
  }

  /** Twilio has no verification handshake. */
  verifyHandshake(): string | null {
    return null;
  }

  verifyWebhook(request_: WebhookRequest, channel: ChannelTarget): boolean {
    const token = secretsOf(channel).auth_token;
    return token !== undefined && this.verifySignature({ rawBody: request_.rawBody, headers: { ...request_.headers, [TWILIO_URL_HEADER]: request_.url }, secret: token });
  }

  /** `headers[TWILIO_URL_HEADER]` carries the URL Twilio called: it is part of what Twilio signs. */
  verifySignature({ rawBody, headers, secret }: SignatureInput): boolean {
    const url = headerValue(headers[TWILIO_URL_HEADER]);
    if (!url) return false;
    return sameSecret(headerValue(headers['x-twilio-signature']), twilioSignature(url, new URLSearchParams(rawBody.toString()), secret));
  }

  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'> & { contentType: string }): InboundEvent[] {
    const p = new URLSearchParams(request_.rawBody);
    const sid = p.get('MessageSid') ?? p.get('SmsSid');
    if (!sid) throw new ChannelDeliveryError('permanent', 'Twilio webhook without MessageSid');
    const status = p.get('MessageStatus') ?? p.get('SmsStatus');
    // A status callback: news about one of our messages. An inbound message says 'received' (or nothing).
    if (status && status !== 'received') {
      const mapped = DELIVERY_STATUS[status];
      if (!mapped) return [];
      const code = p.get('ErrorCode');
      return [{ kind: 'status', externalId: sid, status: mapped, error: code ? { code, title: p.get('ErrorMessage') || 'Undelivered' } : null, at: new Date() }];
    }
    const from = (p.get('From') ?? '').replace(/^whatsapp:/, '');
    if (!/^\+?\d{6,20}$/.test(from)) throw new ChannelDeliveryError('permanent', 'Twilio webhook without a sender number');
    const mediaUrl = Number(p.get('NumMedia') ?? 0) > 0 ? p.get('MediaUrl0') : null;
    const media: InboundMedia | null = mediaUrl ? { ref: mediaUrl, contentType: p.get('MediaContentType0'), filename: null, caption: p.get('Body') || null } : null;
    const buttonText = p.get('ButtonText');
    return [
      {
        kind: 'message',
        externalId: sid,
        from: from.startsWith('+') ? from : `+${from}`,
        profileName: p.get('ProfileName') || null,
        text: media ? null : p.get('Body'),
        media,
        button: buttonText ? { text: buttonText, payload: p.get('ButtonPayload') || null } : null,
        contextExternalId: p.get('OriginalRepliedMessageSid') || null,
        at: new Date(),
      },
    ];
  }

  /** MediaUrl0 is a Twilio address (redirecting to its CDN); fetched only on Twilio's hosts, with basic auth. */
  async fetchMedia(media: InboundMedia, channel: ChannelTarget, maxBytes: number): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    const file = await downloadMedia(media.ref, {
      ...mediaHostsOf(baseUrlOf(settingsOf(channel), TWILIO_BASE_URL), TWILIO_MEDIA_HOSTS),
      fetchImpl: this.fetchImpl,
      headers: { authorization: this.account(channel).authorization },
      maxBytes,
      timeoutMs: this.timeoutMs * 3,
      provider: 'Twilio',
      failure: (answer) => twilioFailure(answer, 'Twilio media'),
    });
    return { bytes: file.bytes, contentType: file.contentType ?? media.contentType ?? 'application/octet-stream', filename: media.filename };
  }

  private noTemplates(): never {
    throw new ChannelDeliveryError('permanent', 'Twilio templates are managed in the Twilio console');
  }

  async submitTemplate(): Promise<ProviderTemplate> {
    return this.noTemplates();
  }

  async editTemplate(): Promise<ProviderTemplate> {
    return this.noTemplates();
  }

  async deleteTemplate(): Promise<void> {
    return this.noTemplates();
  }

  /** Nothing to reconcile: Twilio's templates are not managed from here. */
  async listTemplates(): Promise<ProviderTemplate[]> {
    return [];
  }
}
