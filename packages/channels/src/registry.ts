import { channelTypeOf, type ChannelType } from '@atende/contract';
import type { ChannelAdapter } from './adapter';
import type { ChannelAdapterOptions, ChannelDefinition } from './definition';
import { customChannel } from './custom/definition';
import { emailChannel } from './email/definition';
import { livechatChannel } from './livechat/definition';
import { instagramChannel, messengerChannel } from './meta/definition';
import { smsChannel } from './sms/definition';
import { telegramChannel } from './telegram/definition';
import { whatsapp360dialogChannel, whatsappCloudChannel, whatsappTwilioChannel } from './whatsapp/definition';
import { whatsappWebChannel } from './whatsapp-web/definition';

export type { ChannelAdapterOptions } from './definition';

/** Every channel type that can be created: one definition per type or provider family (definition.ts). */
export const CHANNEL_DEFINITIONS: readonly ChannelDefinition[] = [
  customChannel,
  livechatChannel,
  whatsappCloudChannel,
  whatsapp360dialogChannel,
  whatsappTwilioChannel,
  whatsappWebChannel,
  telegramChannel,
  smsChannel,
  messengerChannel,
  instagramChannel,
  emailChannel,
];

const BY_TYPE: ReadonlyMap<ChannelType, ChannelDefinition> = new Map(
  CHANNEL_DEFINITIONS.flatMap((definition) => definition.types.map((type) => [type, definition] as const)),
);

/** The definition of a stored channel type (a {hash} digest finds the HASH_CHANNEL_KIND one), or null for a type that cannot be created. */
export function channelDefinition(type: string): ChannelDefinition | null {
  const known = channelTypeOf(type);
  return (known && BY_TYPE.get(known)) ?? null;
}

/**
 * Every adapter that can deliver outbound messages, by the channel types it serves (a {hash}
 * provider channel is looked up by HASH_CHANNEL_KIND: core channelKind).
 */
export function channelAdapters(options: ChannelAdapterOptions = {}): Map<string, ChannelAdapter> {
  const byType = new Map<string, ChannelAdapter>();
  for (const definition of CHANNEL_DEFINITIONS) {
    const adapter = definition.createAdapter(options);
    for (const type of definition.types) byType.set(type, adapter);
  }
  return byType;
}
