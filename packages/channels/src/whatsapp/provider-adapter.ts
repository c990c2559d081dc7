import { ChannelDeliveryError, type OutboundMessage } from '../adapter';
import type { ProviderAdapterOptions } from '../provider-base';

/** What every WhatsApp provider adapter takes: the options of every provider adapter, nothing WhatsApp-only yet. */
export type WhatsAppAdapterOptions = ProviderAdapterOptions;

/** The recipient's E.164 digits (without '+'), as the WhatsApp providers take them. */
export function recipientOf(message: OutboundMessage): string {
  const to = message.contact.phoneNumber ?? message.contact.identifier;
  if (!to || !/^\+?\d{6,20}$/.test(to)) throw new ChannelDeliveryError('permanent', 'The contact has no WhatsApp number');
  return to.replace(/^\+/, '');
}
