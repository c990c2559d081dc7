import type { ChannelAdapter } from './adapter';
import { CustomChannelAdapter, type CustomChannelAdapterOptions } from './custom/adapter';

export interface ChannelAdapterOptions {
  custom?: CustomChannelAdapterOptions;
}

/** Every adapter that can deliver outbound messages today, by the channel types it serves. */
export function channelAdapters(options: ChannelAdapterOptions = {}): Map<string, ChannelAdapter> {
  const byType = new Map<string, ChannelAdapter>();
  for (const adapter of [new CustomChannelAdapter(options.custom)]) {
    for (const type of adapter.types) byType.set(type, adapter);
  }
  return byType;
}

