import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import {
  ChannelDeliveryError,
  type ChannelTarget,
  type OutboundMessage,
  type InboundEvent,
  type WebhookRequest,
  type WhatsAppAdapter,
} from '@atende/channels';
import { startWhatsAppSimulator, type SimulatedProvider, type WhatsAppSimulator } from './simulator';

/**
 * What the WhatsApp adapter tests share: a provider simulator, a channel pointing at it, and a
 * server standing in for the api's webhook endpoint that keeps every webhook the simulator posts.
 */

export interface WebhookCapture {
  /** The address the simulator posts to (Twilio signs it). */
  readonly url: string;
  /** The next webhook received (waits up to 3 s). */
  next(): Promise<WebhookRequest>;
  clear(): void;
  close(): Promise<void>;
}

export async function startWebhookCapture(): Promise<WebhookCapture> {
  const received: WebhookRequest[] = [];
  let url = '';
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ rawBody: body, headers: req.headers, url });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1/channels/x/webhook`;
  return {
    url,
    async next() {
      await vi.waitFor(() => expect(received.length, 'webhooks received').toBeGreaterThan(0), { timeout: 3000, interval: 10 });
      return received.shift()!;
    },
    clear: () => void received.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Harness {
  sim: WhatsAppSimulator;
  hooks: WebhookCapture;
  channel: ChannelTarget;
  /** The next webhook, verified and parsed by the adapter. */
  nextEvents(): Promise<{ hook: WebhookRequest; events: InboundEvent[] }>;
  close(): Promise<void>;
}

export async function startHarness(options: {
  provider: SimulatedProvider;
  adapter: WhatsAppAdapter;
  credentials: Record<string, string>;
  settings: Record<string, string>;
  webhookFormat?: 'cloud' | 'onpremise';
}): Promise<Harness> {
  const hooks = await startWebhookCapture();
  const sim = await startWhatsAppSimulator({
    provider: options.provider,
    credentials: options.credentials,
    webhookUrl: hooks.url,
    webhookFormat: options.webhookFormat,
  });
  const channel: ChannelTarget = {
    uuid: 'ch',
    type: options.adapter.types[0] ?? '',
    config: { base_url: sim.baseUrl, ...options.settings },
    credentials: options.credentials,
  };
  return {
    sim,
    hooks,
    channel,
    async nextEvents() {
      const hook = await hooks.next();
      if (!options.adapter.verifyWebhook(hook, channel)) throw new Error('The webhook did not verify');
      return { hook, events: await options.adapter.parseWebhook({ rawBody: hook.rawBody, contentType: contentTypeOf(hook) }, channel) };
    },
    close: async () => {
      await sim.close();
      await hooks.close();
    },
  };
}

/**
 * A harness for the enclosing test file or describe block: started before its tests, closed after
 * them, and emptied (sends, templates, planned answers, captured webhooks) before each test.
 */
export function useHarness(options: Parameters<typeof startHarness>[0]): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    Object.assign(harness, await startHarness(options));
  });
  afterAll(() => harness.close());
  beforeEach(() => {
    harness.hooks.clear();
    harness.sim.reset();
  });
  return harness;
}

export const contentTypeOf = (hook: WebhookRequest) => String(hook.headers['content-type'] ?? '');

/** An agent's message to Maria; each one a new uuid (our id of the message, sent as its idempotency key and callback data). */
export const outboundMessage = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  uuid: randomUUID(),
  conversationUuid: 'c',
  content: 'Olá, Maria!',
  annex: null,
  author: 'USER',
  createdAt: new Date(),
  contact: { uuid: 'u', phoneNumber: '+5511988887777', identifier: null },
  ...overrides,
});

/** The ChannelDeliveryError a call threw (anything else fails the test). */
export async function deliveryErrorOf(promise: Promise<unknown>): Promise<ChannelDeliveryError> {
  const outcome = await promise.then(
    () => new Error('expected a ChannelDeliveryError, the call succeeded'),
    (error: unknown) => error,
  );
  if (outcome instanceof ChannelDeliveryError) return outcome;
  throw outcome instanceof Error ? outcome : new Error(String(outcome));
}
