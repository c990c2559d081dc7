import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage } from '../adapter';
import { signWebhookBody } from '../signature';
import { CustomChannelAdapter } from './adapter';
import { startCustomChannelSimulator, type CustomChannelSimulator } from '@atende/simulators/custom';
import { ATTACK_HOSTS, LOCAL_OUTBOUND } from '../test-outbound';

const secret = 'adapter-secret';
let sim: CustomChannelSimulator;
let channel: ChannelTarget;
beforeAll(async () => {
  sim = await startCustomChannelSimulator({ secret });
  channel = { uuid: 'c', type: 'custom', config: { webhook_url: sim.webhookUrl }, credentials: { webhook_secret: secret } };
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const message: OutboundMessage = {
  uuid: '7d3c1a52-2a6f-4a0e-8f1e-0c3a6b9f7e01',
  conversationUuid: '7d3c1a52-2a6f-4a0e-8f1e-0c3a6b9f7e02',
  content: 'Olá!',
  annex: { url: 'http://files/x.pdf', contentType: 'application/pdf', originalFilename: 'x.pdf' },
  author: 'USER',
  createdAt: new Date('2026-03-04T05:06:07.000Z'),
  contact: { uuid: '7d3c1a52-2a6f-4a0e-8f1e-0c3a6b9f7e03', phoneNumber: '+5511988887777', identifier: 'ext-42' },
};
const adapter = new CustomChannelAdapter({ timeoutMs: 300, outbound: LOCAL_OUTBOUND });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as ChannelDeliveryError,
  );

describe('custom channel adapter', () => {
  it('posts the signed message body with timestamp and idempotency key, and returns the receiver id', async () => {
    expect(await adapter.send(message, channel)).toEqual({ externalId: 'sim-1' });
    const [req] = sim.requests;
    expect(req!.body).toEqual({
      event: 'message',
      message: {
        uuid: message.uuid,
        conversation_uuid: message.conversationUuid,
        content: 'Olá!',
        annex: { url: 'http://files/x.pdf', content_type: 'application/pdf', original_filename: 'x.pdf' },
        author: 'USER',
        created_at: '2026-03-04T05:06:07.000Z',
      },
      contact: { uuid: message.contact.uuid, phone_number: '+5511988887777', identifier: 'ext-42' },
    });
    expect(req!.idempotencyKey).toBe(message.uuid);
    expect(Math.abs(Number(req!.timestamp) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('says which failures are worth a retry: 5xx, 408, 429 and time-outs are transient, other 4xx permanent', async () => {
    for (const [status, kind] of [
      [500, 'transient'],
      [503, 'transient'],
      [408, 'transient'],
      [429, 'transient'],
      [400, 'permanent'],
      [404, 'permanent'],
      [422, 'permanent'],
    ] as const) {
      sim.failNext(1, status);
      const error = await failure(adapter.send(message, channel));
      expect(error).toBeInstanceOf(ChannelDeliveryError);
      expect({ status, kind: error.kind, httpStatus: error.httpStatus }).toEqual({ status, kind, httpStatus: status });
    }
    sim.slowNext(1, 1000);
    expect(await failure(adapter.send(message, channel))).toMatchObject({ kind: 'transient', message: expect.stringMatching(/300 ms/) });
  });

  it('treats an unreachable webhook as transient', async () => {
    const closed = { ...channel, config: { webhook_url: 'http://127.0.0.1:1/webhook' } };
    expect(await failure(adapter.send(message, closed))).toMatchObject({ kind: 'transient' });
  });

  it('refuses webhook URLs that are not http(s), or missing secrets, without sending anything', async () => {
    let fetched = 0;
    const counting = new CustomChannelAdapter({
      fetch: (async () => {
        fetched++;
        return new Response('{}');
      }) as typeof fetch,
    });
    for (const webhook_url of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)', 'not a url']) {
      expect(await failure(counting.send(message, { ...channel, config: { webhook_url } }))).toMatchObject({ kind: 'permanent' });
    }
    expect(await failure(counting.send(message, { ...channel, config: {} }))).toMatchObject({ kind: 'permanent' });
    expect(await failure(counting.send(message, { ...channel, credentials: null }))).toMatchObject({ kind: 'permanent' });
    expect(fetched).toBe(0);
  });

  it('does not follow a redirect to an address the channel owner did not configure', async () => {
    const redirector = createServer((_req, res) => res.writeHead(307, { location: sim.webhookUrl }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const { port } = redirector.address() as AddressInfo;
    try {
      const moved = { ...channel, config: { webhook_url: `http://127.0.0.1:${port}/moved` } };
      expect(await failure(adapter.send(message, moved))).toMatchObject({ kind: 'permanent', httpStatus: 307 });
      expect(sim.requests).toHaveLength(0);
    } finally {
      redirector.close();
    }
  });

  it('refuses webhook URLs on loopback, private or metadata addresses without the allowlist, sending nothing', async () => {
    const strict = new CustomChannelAdapter({ timeoutMs: 300 });
    const port = new URL(sim.webhookUrl).port;
    for (const host of ATTACK_HOSTS) {
      const error = await failure(strict.send(message, { ...channel, config: { webhook_url: `http://${host}:${port}/webhook` } }));
      expect([error.kind, error.message]).toEqual(['permanent', expect.stringContaining('refused')]);
    }
    expect(sim.requests).toHaveLength(0);
    // The allowlisted simulator still gets the message.
    expect(await adapter.send(message, channel)).toEqual({ externalId: 'sim-1' });
  });

  it("stores only a status line of a failed answer, never the receiver's body", async () => {
    const leaky = createServer((_req, res) => res.writeHead(502, 'internal-admin-panel').end('root:x:0:0 internal secret page'));
    await new Promise<void>((r) => leaky.listen(0, '127.0.0.1', r));
    const { port } = leaky.address() as AddressInfo;
    try {
      const error = await failure(adapter.send(message, { ...channel, config: { webhook_url: `http://127.0.0.1:${port}/` } }));
      expect([error.kind, error.message]).toEqual(['transient', 'Webhook answered HTTP 502 Bad Gateway']);
    } finally {
      leaky.close();
    }
  });

  it('verifies signatures in the format it sends', () => {
    const rawBody = '{"a":1}';
    const headers = { 'x-atende-signature': signWebhookBody(rawBody, secret) };
    expect(adapter.verifySignature({ rawBody, headers, secret })).toBe(true);
    expect(adapter.verifySignature({ rawBody, headers, secret: 'other' })).toBe(false);
    expect(adapter.verifySignature({ rawBody: '{"a":2}', headers, secret })).toBe(false);
    expect(adapter.verifySignature({ rawBody, headers: {}, secret })).toBe(false);
  });
});
