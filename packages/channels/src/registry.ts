import type { ChannelAdapter } from './adapter';
import { CustomChannelAdapter, type CustomChannelAdapterOptions } from './custom/adapter';
import { LivechatAdapter } from './livechat/adapter';
import { WhatsAppCloudAdapter } from './whatsapp/cloud';
import { WhatsApp360DialogAdapter } from './whatsapp/dialog360';
import type { OutboundClient } from './outbound';
import type { WhatsAppAdapterOptions } from './whatsapp/provider-adapter';
import { WhatsAppTwilioAdapter } from './whatsapp/twilio';
import { TelegramAdapter } from './telegram/adapter';
import { SmsTwilioAdapter } from './sms/adapter';
import { InstagramAdapter, MessengerAdapter } from './meta/adapter';
import { EmailAdapter, type EmailAdapterOptions } from './email/adapter';

export interface ChannelAdapterOptions {
  /** The guarded client of every adapter (OUTBOUND_ALLOW_HOSTS); strict (public addresses only) by default. */
  outbound?: OutboundClient;
  custom?: CustomChannelAdapterOptions;
  /** Defaults for the three WhatsApp providers; each provider's own options below win. */
  whatsapp?: WhatsAppAdapterOptions;
  whatsappCloud?: WhatsAppAdapterOptions;
  whatsapp360dialog?: WhatsAppAdapterOptions;
  whatsappTwilio?: WhatsAppAdapterOptions;
  telegram?: WhatsAppAdapterOptions;
  sms?: WhatsAppAdapterOptions;
  /** Messenger and Instagram (Meta's Messenger Platform). */
  meta?: WhatsAppAdapterOptions;
  email?: Omit<EmailAdapterOptions, 'outbound'>;
}

/**
 * Every adapter that can deliver outbound messages today, by the channel types it serves ({hash}
 * provider channels are looked up as '{hash}': core channelKind).
 */
export function channelAdapters(options: ChannelAdapterOptions = {}): Map<string, ChannelAdapter> {
  const byType = new Map<string, ChannelAdapter>();
  const adapters: ChannelAdapter[] = [
    new CustomChannelAdapter({ outbound: options.outbound, ...options.custom }),
    new LivechatAdapter(),
    new WhatsAppCloudAdapter({ outbound: options.outbound, ...options.whatsapp, ...options.whatsappCloud }),
    new WhatsApp360DialogAdapter({ outbound: options.outbound, ...options.whatsapp, ...options.whatsapp360dialog }),
    new WhatsAppTwilioAdapter({ outbound: options.outbound, ...options.whatsapp, ...options.whatsappTwilio }),
    new TelegramAdapter({ outbound: options.outbound, ...options.telegram }),
    new SmsTwilioAdapter({ outbound: options.outbound, ...options.sms }),
    new MessengerAdapter({ outbound: options.outbound, ...options.meta }),
    new InstagramAdapter({ outbound: options.outbound, ...options.meta }),
    new EmailAdapter({ outbound: options.outbound, ...options.email }),
  ];
  for (const adapter of adapters) {
    for (const type of adapter.types) byType.set(type, adapter);
  }
  return byType;
}
