import { locationText, type MessageDetails } from '@atende/contract';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type OutboundTemplate, type SendResult } from '../adapter';
import { TwilioMessagingAdapter, twilioSender, twilioStatusEvent } from '../twilio/messaging';
import { recipientOf } from './provider-adapter';
import { settingsOf } from './settings';
import type { InboundEvent, InboundMedia, ProviderOutboundTemplate, ProviderTemplate, WebhookRequest, WhatsAppAdapter } from './types';

export { TWILIO_BASE_URL, TWILIO_MEDIA_HOSTS, TWILIO_URL_HEADER, twilioSignature } from '../twilio/messaging';

const PREFIX = 'whatsapp:';

/** A number parameter of the webhook, when given and within [-limit, limit]. */
function coordinate(p: URLSearchParams, name: string, limit: number): number | null {
  const raw = p.get(name)?.trim();
  const value = raw ? Number(raw) : NaN;
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/** A shared location (Latitude, Longitude, with Label and Address when WhatsApp gives them), as the other channels keep one. */
function locationOf(p: URLSearchParams): { text: string; details: MessageDetails } | null {
  const latitude = coordinate(p, 'Latitude', 90);
  const longitude = coordinate(p, 'Longitude', 180);
  if (latitude === null || longitude === null) return null;
  const details: MessageDetails = {
    type: 'location',
    latitude,
    longitude,
    name: p.get('Label')?.trim() || null,
    address: p.get('Address')?.trim() || null,
  };
  return { text: locationText(details), details };
}

/** The template's Content SID when the worker passed one (ProviderOutboundTemplate.externalId). */
function contentSidOf(template: OutboundTemplate): string | null {
  const id = (template as ProviderOutboundTemplate).externalId;
  return typeof id === 'string' && /^HX[0-9a-f]{32}$/i.test(id) ? id : null;
}

/**
 * Twilio's WhatsApp: the Messages API with whatsapp: addresses (../twilio/messaging.ts). Templates
 * live in Twilio's Content API and are managed in the Twilio console: a template message goes by its
 * Content SID when known, else as its rendered text.
 */
export class WhatsAppTwilioAdapter extends TwilioMessagingAdapter implements WhatsAppAdapter {
  readonly types = ['whatsapp_twilio'] as const;
  readonly supportsTemplates = false;

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const params = new URLSearchParams({ To: `${PREFIX}+${recipientOf(message)}` });
    this.setSender(params, settingsOf(channel), PREFIX);
    const contentSid = message.template ? contentSidOf(message.template) : null;
    if (message.template && contentSid) {
      // Content variables are numbered as the template's body parameters {{1}}, {{2}}, ...
      params.set('ContentSid', contentSid);
      params.set('ContentVariables', JSON.stringify(Object.fromEntries(message.template.body.map((v, i) => [String(i + 1), v]))));
    } else {
      params.set('Body', message.content);
      if (message.annex) params.set('MediaUrl', message.annex.url);
    }
    return { externalId: await this.createMessage(channel, params, message.uuid) };
  }

  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'> & { contentType: string }): InboundEvent[] {
    const p = new URLSearchParams(request_.rawBody);
    // A status callback: news about one of our messages. An inbound message says 'received' (or nothing).
    const { sid, events } = twilioStatusEvent(p);
    if (events) return events;
    const from = twilioSender(p, PREFIX);
    const mediaUrl = Number(p.get('NumMedia') ?? 0) > 0 ? p.get('MediaUrl0') : null;
    const media: InboundMedia | null = mediaUrl
      ? { ref: mediaUrl, contentType: p.get('MediaContentType0'), filename: null, caption: p.get('Body') || null }
      : null;
    const buttonText = p.get('ButtonText');
    const location = media || buttonText ? null : locationOf(p);
    return [
      {
        kind: 'message',
        externalId: sid,
        from,
        profileName: p.get('ProfileName') || null,
        text: media ? null : location ? location.text : p.get('Body'),
        media,
        button: buttonText ? { text: buttonText, payload: p.get('ButtonPayload') || null } : null,
        contextExternalId: p.get('OriginalRepliedMessageSid') || null,
        at: new Date(),
        ...(location ? { details: location.details } : {}),
      },
    ];
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
