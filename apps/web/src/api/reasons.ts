import type { TFunction } from 'i18next';
import { phrase } from '../i18n/phrase';

/**
 * Readable reasons for the providers' error codes, in our own words: WhatsApp
 * (Cloud API, 360dialog, on-premise) and Twilio codes a campaign manager or an agent meets.
 */
export const PROVIDER_REASONS: Record<number, string> = {
  131026: phrase('This number cannot receive WhatsApp messages'),
  1013: phrase('This number cannot receive WhatsApp messages'),
  63024: phrase('This number cannot receive WhatsApp messages'),
  21211: phrase('The phone number is not valid'),
  131047: phrase('More than 24 hours since the customer last wrote: only a template can be sent'),
  470: phrase('More than 24 hours since the customer last wrote: only a template can be sent'),
  63016: phrase('More than 24 hours since the customer last wrote: only a template can be sent'),
  131049: phrase('WhatsApp held this marketing message back to protect the customer (too many marketing messages)'),
  130429: phrase("The provider's sending rate was exceeded; try again later"),
  131056: phrase('Too many messages to this number in a short time; try again later'),
  132000: phrase('The number of parameters does not match the template'),
  132001: phrase('The template does not exist at the provider in this language'),
  132005: phrase('The text with the parameters is too long for the template'),
  132007: phrase("The template breaks the provider's formatting rules"),
  132012: phrase('A parameter has a format the template does not accept'),
  132015: phrase('The template is paused at the provider'),
  132016: phrase('The template was disabled by the provider'),
  131008: phrase('A required parameter is missing'),
  131009: phrase('A parameter value is not valid'),
  131051: phrase('This type of message is not supported'),
  131052: phrase('The media could not be downloaded from the customer'),
  131053: phrase('The media could not be uploaded'),
  131031: phrase('The WhatsApp Business account is locked'),
  131042: phrase('The WhatsApp Business account has a payment problem'),
  368: phrase('The WhatsApp number is temporarily blocked for policy violations'),
  131000: phrase('The provider could not send the message'),
};

/** What a channel refuses (contract CHANNEL_REFUSALS), named in parentheses at the end of an adapter's reason. */
export const CHANNEL_REFUSAL_REASONS: Record<string, string> = {
  channel_window_closed: phrase('More than 24 hours since the contact last wrote: this channel takes no reply until they write again'),
  channel_text_too_long: phrase('The text is longer than this channel takes'),
  channel_caption_too_long: phrase('The caption is longer than this channel takes'),
  channel_attachment_type: phrase('This channel does not take this type of file'),
  channel_attachment_too_large: phrase('The file is larger than this channel takes'),
};
const CHANNEL_REFUSAL = /\((channel_[a-z_]+)\)$/;

const PARAMETER = /^Parameter (\d+) is required$/;
/** "(#131026) ..." in a send refusal, "131026: ..." in a delivery receipt. */
const PROVIDER_CODE = /\(#(\d+)\)|^(\d+):/;

/**
 * A stored failure reason (a subscriber's or a message's error_message) in the UI's language: our
 * own messages through the dictionary, the providers' through their code, else as the provider wrote it.
 */
export function reasonText(message: string, t: TFunction): string {
  const parameter = PARAMETER.exec(message);
  if (parameter) return t('Parameter {{n}} is required', { n: Number(parameter[1]) });
  const refusal = CHANNEL_REFUSAL_REASONS[CHANNEL_REFUSAL.exec(message)?.[1] ?? ''];
  if (refusal) return t(refusal);
  const coded = PROVIDER_CODE.exec(message);
  const code = coded ? Number(coded[1] ?? coded[2]) : NaN;
  const known = PROVIDER_REASONS[code];
  if (known) return `${t(known)} (#${code})`;
  return t(message);
}
