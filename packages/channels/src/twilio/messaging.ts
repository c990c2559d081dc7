import { createHmac } from 'node:crypto';
import { ChannelDeliveryError, type ChannelTarget, type SignatureInput } from '../adapter';
import { cleanProviderText, headerValue, isAmbiguousStatus, isTransientStatus, request, sameSecret, type HttpAnswer } from '../http';
import { statusLine } from '../outbound';
import type { InboundEvent, InboundMedia, WebhookRequest } from '../provider';
import { downloadMedia, mediaHostsOf } from '../provider-media';
import { ProviderAdapter } from '../provider-base';
import { baseUrlOf, needed } from '../provider-settings';
import { twilioSecretsOf as secretsOf, twilioSettingsOf as settingsOf, type TwilioSettings } from './settings';

/**
 * What Twilio's WhatsApp and SMS channels share: the Messages API (form-encoded, basic auth
 * account_sid:auth_token), X-Twilio-Signature on every webhook, status callbacks, error bodies and
 * media on Twilio's hosts.
 */

export const TWILIO_BASE_URL = 'https://api.twilio.com';
/** Where Twilio serves media ('.x' = any subdomain of x). */
export const TWILIO_MEDIA_HOSTS = ['api.twilio.com', '.twiliocdn.com'] as const;
/** verifySignature's input carries the URL Twilio called (part of what it signs) under this header name. */
export const TWILIO_URL_HEADER = 'x-atende-url';

/** X-Twilio-Signature: base64 HMAC-SHA1 (auth token) of the URL followed by each POST parameter's name and value, sorted by name. */
export function twilioSignature(url: string, params: URLSearchParams | Record<string, string>, authToken: string): string {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const data =
    url +
    entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}${v}`)
      .join('');
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
export function twilioFailure(answer: HttpAnswer, what = 'Twilio'): ChannelDeliveryError {
  const body = answer.json() as { code?: unknown; message?: unknown } | null;
  // Twilio's documented error message only; never the raw body.
  const text = cleanProviderText(typeof body?.message === 'string' ? body.message : '');
  const detail = [typeof body?.code === 'number' ? `(#${String(body.code)})` : '', text].filter(Boolean).join(' ');
  const kind = isTransientStatus(answer.status) || body?.code === 20429 ? 'transient' : 'permanent';
  return new ChannelDeliveryError(
    kind,
    detail ? `${what} answered ${answer.status}: ${detail}` : `${what} answered ${statusLine(answer.status)}`,
    answer.status,
    { outcomeUnknown: isAmbiguousStatus(answer.status) },
  );
}

/**
 * A status callback (MessageStatus other than 'received') as a status event, null for an inbound
 * message; throws on a body without MessageSid. A failure is titled with what Twilio documents for
 * status callbacks: the channel's own error text (ChannelStatusMessage, WhatsApp) when given, else
 * the ErrorCode (an SMS callback carries no error text).
 */
export function twilioStatusEvent(p: URLSearchParams): { sid: string; events: InboundEvent[] | null } {
  const sid = p.get('MessageSid') ?? p.get('SmsSid');
  if (!sid) throw new ChannelDeliveryError('permanent', 'Twilio webhook without MessageSid');
  const status = p.get('MessageStatus') ?? p.get('SmsStatus');
  if (!status || status === 'received') return { sid, events: null };
  const mapped = DELIVERY_STATUS[status];
  if (!mapped) return { sid, events: [] };
  const code = p.get('ErrorCode');
  const error = code ? { code, title: cleanProviderText(p.get('ChannelStatusMessage') ?? '') || `Twilio error ${code}` } : null;
  return {
    sid,
    events: [
      {
        kind: 'status',
        externalId: sid,
        status: mapped,
        error,
        at: new Date(),
      },
    ],
  };
}

/** The sender number of an inbound webhook (without the channel's address prefix), in E.164 with '+'. */
export function twilioSender(p: URLSearchParams, prefix: string): string {
  const from = (p.get('From') ?? '').replace(prefix, '');
  if (!/^\+?\d{6,20}$/.test(from)) throw new ChannelDeliveryError('permanent', 'Twilio webhook without a sender number');
  return from.startsWith('+') ? from : `+${from}`;
}

/** The Twilio plumbing of an adapter: account auth, POST Messages.json, webhook signatures, media download. */
export abstract class TwilioMessagingAdapter extends ProviderAdapter {
  protected account(channel: ChannelTarget): { sid: string; authorization: string } {
    const sid = needed(settingsOf(channel), 'account_sid', 'account SID');
    const token = needed(secretsOf(channel), 'auth_token', 'auth token');
    return { sid, authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
  }

  /** The sender: the Messaging Service when set, else the number (with the channel's address prefix). */
  protected setSender(params: URLSearchParams, settings: TwilioSettings, prefix: string): void {
    if (settings.messaging_service_sid) params.set('MessagingServiceSid', settings.messaging_service_sid);
    else params.set('From', `${prefix}${needed(settings, 'from_number', 'sender number').replace(prefix, '')}`);
  }

  /** POST /2010-04-01/Accounts/{sid}/Messages.json; answers the new message's sid. */
  protected async createMessage(channel: ChannelTarget, params: URLSearchParams, idempotencyKey: string): Promise<string | null> {
    const { sid, authorization } = this.account(channel);
    const answer = await request(
      this.fetchImpl,
      `${baseUrlOf(settingsOf(channel), TWILIO_BASE_URL)}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
      {
        method: 'POST',
        // The message's uuid as idempotency key: a proxy or simulator that honours it drops a retried duplicate.
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'Atende/1',
          'idempotency-key': idempotencyKey,
        },
        body: params.toString(),
        timeoutMs: this.timeoutMs,
      },
      'Twilio',
    );
    if (answer.status < 200 || answer.status >= 300) throw twilioFailure(answer);
    const sidOut = (answer.json() as { sid?: unknown } | null)?.sid;
    return typeof sidOut === 'string' && sidOut ? sidOut : null;
  }

  /** Twilio has no verification handshake. */
  verifyHandshake(): string | null {
    return null;
  }

  verifyWebhook(request_: WebhookRequest, channel: ChannelTarget): boolean {
    const token = secretsOf(channel).auth_token;
    return (
      token !== undefined &&
      this.verifySignature({
        rawBody: request_.rawBody,
        headers: { ...request_.headers, [TWILIO_URL_HEADER]: request_.url },
        secret: token,
      })
    );
  }

  /** `headers[TWILIO_URL_HEADER]` carries the URL Twilio called: it is part of what Twilio signs. */
  verifySignature({ rawBody, headers, secret }: SignatureInput): boolean {
    const url = headerValue(headers[TWILIO_URL_HEADER]);
    if (!url) return false;
    return sameSecret(headerValue(headers['x-twilio-signature']), twilioSignature(url, new URLSearchParams(rawBody.toString()), secret));
  }

  /** MediaUrlN is a Twilio address (redirecting to its CDN); fetched only on Twilio's hosts, with basic auth. */
  async fetchMedia(
    media: InboundMedia,
    channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    const file = await downloadMedia(media.ref, {
      ...mediaHostsOf(baseUrlOf(settingsOf(channel), TWILIO_BASE_URL), TWILIO_MEDIA_HOSTS),
      fetchImpl: this.fetchImpl,
      headers: { authorization: this.account(channel).authorization },
      maxBytes,
      timeoutMs: this.timeoutMs * 3,
      provider: 'Twilio',
      failure: (answer) => twilioFailure(answer, 'Twilio media'),
    });
    return {
      bytes: file.bytes,
      contentType: file.contentType ?? media.contentType ?? 'application/octet-stream',
      filename: media.filename,
    };
  }
}
