import { outboundClient, type OutboundClient } from './outbound';

/** What every provider adapter takes (channelAdapters options, per channel type or provider family). */
export interface ProviderAdapterOptions {
  /** Per provider call; media downloads get three times as long. */
  timeoutMs?: number;
  /** The guarded client every provider call (messages, templates, media) goes through; strict by default. */
  outbound?: OutboundClient;
  /** Replaces the outbound client's fetch (tests that count calls). */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The HTTP settings the provider adapters (WhatsApp providers, Telegram, SMS, Meta) share. */
export abstract class ProviderAdapter {
  protected readonly timeoutMs: number;
  protected readonly fetchImpl: typeof fetch;

  constructor(options: ProviderAdapterOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? (options.outbound ?? outboundClient()).fetch;
  }
}
