import { ChannelDeliveryError, type OutboundMessage } from '../adapter';

/** What every WhatsApp provider adapter takes (channelAdapters options, per provider). */
export interface WhatsAppAdapterOptions {
  /** Per provider call; media downloads get three times as long. */
  timeoutMs?: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The HTTP settings the provider adapters share. */
export abstract class ProviderAdapter {
  protected readonly timeoutMs: number;
  protected readonly fetchImpl: typeof fetch;

  constructor(options: WhatsAppAdapterOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }
}

/** The recipient's E.164 digits (without '+'), as the providers take them. */
export function recipientOf(message: OutboundMessage): string {
  const to = message.contact.phoneNumber ?? message.contact.identifier;
  if (!to || !/^\+?\d{6,20}$/.test(to)) throw new ChannelDeliveryError('permanent', 'The contact has no WhatsApp number');
  return to.replace(/^\+/, '');
}
