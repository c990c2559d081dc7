import { attachmentRuleOf, capabilitiesOf, settingOn, textRefusal } from '@atende/contract';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type SendResult } from '../adapter';
import type { InboundEvent, InboundMedia, ProviderChannelAdapter, WebhookRequest } from '../provider';
import { TwilioMessagingAdapter, twilioSender, twilioStatusEvent } from '../twilio/messaging';
import { twilioSettingsOf as settingsOf } from '../twilio/settings';

/** Twilio takes at most 10 media per MMS. */
const MAX_INBOUND_MEDIA = 10;

/** The recipient in E.164 (SMS contacts are known by their phone number). */
function smsRecipientOf(message: OutboundMessage): string {
  const to = message.contact.phoneNumber ?? message.contact.identifier;
  if (!to || !/^\+?\d{6,20}$/.test(to)) throw new ChannelDeliveryError('permanent', 'The contact has no phone number');
  return to.startsWith('+') ? to : `+${to}`;
}

/**
 * SMS (and MMS) through Twilio Programmable Messaging: the Messages API with plain E.164 addresses
 * (../twilio/messaging.ts), a StatusCallback to the channel's webhook for sent / delivered /
 * undelivered / failed, and media only when the channel has mms_enabled (contract
 * channel-capabilities.ts). SMS has no read receipts.
 */
export class SmsTwilioAdapter extends TwilioMessagingAdapter implements ProviderChannelAdapter {
  readonly types = ['sms'] as const;

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const settings = settingsOf(channel);
    const capabilities = capabilitiesOf('sms', settings)!;
    const text = message.content.trim();
    const params = new URLSearchParams({ To: smsRecipientOf(message) });
    this.setSender(params, settings, '');
    if (message.annex) {
      if (!settingOn(settings, 'mms_enabled'))
        throw new ChannelDeliveryError('permanent', 'This SMS channel does not send attachments: MMS is off (channel_attachment_type)');
      const rule = attachmentRuleOf(capabilities, message.annex.contentType);
      if (!rule)
        throw new ChannelDeliveryError('permanent', `MMS does not take ${message.annex.contentType} files (channel_attachment_type)`);
      if (message.annex.size !== undefined && message.annex.size > rule.maxBytes) {
        throw new ChannelDeliveryError(
          'permanent',
          `MMS takes files of at most ${rule.maxBytes / (1024 * 1024)} MB (channel_attachment_too_large)`,
        );
      }
      // Twilio fetches the file itself: our signed link.
      params.set('MediaUrl', message.annex.url);
    } else if (!text) throw new ChannelDeliveryError('permanent', 'SMS does not take empty messages');
    const refused = textRefusal('sms', text, message.annex !== null);
    if (refused) throw new ChannelDeliveryError('permanent', `SMS takes messages of at most ${refused.max} characters (${refused.code})`);
    if (text) params.set('Body', text);
    if (channel.webhookUrl) params.set('StatusCallback', channel.webhookUrl);
    return { externalId: await this.createMessage(channel, params, message.uuid) };
  }

  /**
   * An inbound SMS/MMS or a status callback. An MMS with several media becomes one message per
   * medium (the first carries the text as caption and the MessageSid; the others `<sid>/<n>`, so a
   * repeated delivery still stores each once).
   */
  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'> & { contentType: string }): InboundEvent[] {
    const p = new URLSearchParams(request_.rawBody);
    const { sid, events } = twilioStatusEvent(p);
    if (events) return events;
    const from = twilioSender(p, '');
    const body = p.get('Body') ?? '';
    const count = Math.min(MAX_INBOUND_MEDIA, Math.max(0, Math.trunc(Number(p.get('NumMedia') ?? 0)) || 0));
    const media: InboundMedia[] = [];
    for (let i = 0; i < count; i++) {
      const url = p.get(`MediaUrl${i}`);
      if (url)
        media.push({
          ref: url,
          contentType: p.get(`MediaContentType${i}`),
          filename: null,
          caption: media.length === 0 && body ? body : null,
        });
    }
    const base = { kind: 'message' as const, from, profileName: null, button: null, contextExternalId: null, at: new Date() };
    if (!media.length) return body ? [{ ...base, externalId: sid, text: body, media: null }] : [];
    return media.map((m, i) => ({ ...base, externalId: i === 0 ? sid : `${sid}/${i}`, text: null, media: m }));
  }
}
