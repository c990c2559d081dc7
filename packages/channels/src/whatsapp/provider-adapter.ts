import { ChannelDeliveryError, type OutboundMessage } from '../adapter';
import { outboundClient, type OutboundClient } from '../outbound';

/** What every WhatsApp provider adapter takes (channelAdapters options, per provider). */
export interface WhatsAppAdapterOptions {
  /** Per provider call; media downloads get three times as long. */
  timeoutMs?: number;
  /** The guarded client every provider call (messages, templates, media) goes through; strict by default. */
  outbound?: OutboundClient;
  /** Replaces the outbound client's fetch (tests that count calls). */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The HTTP settings the provider adapters share. */
export abstract class ProviderAdapter {
  protected readonly timeoutMs: number;
  protected readonly fetchImpl: typeof fetch;

  constructor(options: WhatsAppAdapterOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? (options.outbound ?? outboundClient()).fetch;
  }
}

/** The recipient's E.164 digits (without '+'), as the providers take them. */
export function recipientOf(message: OutboundMessage): string {
  const to = message.contact.phoneNumber ?? message.contact.identifier;
  if (!to || !/^\+?\d{6,20}$/.test(to)) throw new ChannelDeliveryError('permanent', 'The contact has no WhatsApp number');
  return to.replace(/^\+/, '');
}
