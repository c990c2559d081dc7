import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelTarget, WhatsApp360DialogAdapter } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from './simulator';
import { deliveryErrorOf, outboundMessage as message, startWebhookCapture, type WebhookCapture } from './simulator-harness';
import { LOCAL_OUTBOUND } from '@atende/channels/test-outbound';

/**
 * The simulator steered over HTTP, as the demo, benches and e2e do from another process
 * (/_simulator/*), and its answers as the providers give them.
 */
const credentials = { api_key: 'demo-key', webhook_secret: 'demo-secret' };
const adapter = new WhatsApp360DialogAdapter({ timeoutMs: 2000, outbound: LOCAL_OUTBOUND });
let sim: WhatsAppSimulator;
let hooks: WebhookCapture;
let channel: ChannelTarget;
const steer = (path: string, body?: unknown, method = 'POST') =>
  fetch(`${sim.baseUrl}/_simulator/${path}`, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });

beforeAll(async () => {
  hooks = await startWebhookCapture();
  // Started before the api's address is known, as the demo is.
  sim = await startWhatsAppSimulator({ provider: '360dialog', credentials });
  channel = { uuid: 'ch', type: 'whatsapp_360dialog', config: { base_url: sim.baseUrl, api_version: 'cloud' }, credentials };
});
afterAll(async () => {
  await sim.close();
  await hooks.close();
});

describe('WhatsApp provider simulator over HTTP', () => {
  it('posts an inbound message with media to the webhook URL given later, and serves the media', async () => {
    const early = await steer('inbound', { from: '+5511977776666', text: 'Oi' });
    expect([early.status, await early.json()]).toEqual([502, { error_message: 'The simulator has no webhook URL to post to' }]);
    expect((await steer('webhook-url', { url: hooks.url })).status).toBe(204);
    const answer = await steer('inbound', {
      from: '+5511977776666',
      name: 'Rita',
      media: { contentType: 'application/pdf', filename: 'nota.pdf', base64: Buffer.from('%PDF').toString('base64') },
    });
    const { id } = (await answer.json()) as { id: string };
    const hook = await hooks.next();
    expect(adapter.verifyWebhook(hook, channel)).toBe(true);
    const [event] = adapter.parseWebhook({ rawBody: hook.rawBody, contentType: 'application/json' });
    expect(event).toMatchObject({
      kind: 'message',
      externalId: id,
      from: '+5511977776666',
      profileName: 'Rita',
      media: { filename: 'nota.pdf' },
    });
    if (event?.kind !== 'message' || !event.media) throw new Error('no media');
    expect((await adapter.fetchMedia(event.media, channel, 100)).bytes.toString()).toBe('%PDF');
    expect((await steer('inbound', { text: 'no sender' })).status).toBe(400);
  });

  it('sends the webhook token a channel created later asks for (360dialog takes it with the address)', async () => {
    expect((await steer('webhook-url', { url: hooks.url, token: 'token-of-the-new-channel' })).status).toBe(204);
    await steer('inbound', { from: '+5511977776667', text: 'Para o canal novo' });
    const hook = await hooks.next();
    const created: ChannelTarget = { ...channel, credentials: { ...credentials, webhook_secret: 'token-of-the-new-channel' } };
    expect(adapter.verifyWebhook(hook, created)).toBe(true);
    expect(adapter.verifyWebhook(hook, channel)).toBe(false);
    // Back to the demo channel's token for the tests that follow.
    expect((await steer('webhook-url', { url: hooks.url, token: credentials.webhook_secret })).status).toBe(204);
  });

  it('plans failures and rate limits, refuses unknown recipients, and lists what it answered', async () => {
    await steer('plan', { count: 1, status: 500 });
    await steer('rate-limit', { count: 1 });
    await steer('unknown-recipients', { numbers: ['+5511955554444'] });
    expect((await deliveryErrorOf(adapter.send(message(), channel))).kind).toBe('transient');
    expect((await deliveryErrorOf(adapter.send(message(), channel))).message).toContain('130429');
    const unknown = await deliveryErrorOf(
      adapter.send(message({ contact: { uuid: 'u', phoneNumber: '+5511955554444', identifier: null } }), channel),
    );
    expect(unknown.message).toContain('131026');
    const ok = await adapter.send(message(), channel);
    const { sent } = (await (await steer('sent', undefined, 'GET')).json()) as { sent: { id: string; answeredStatus: number }[] };
    expect(sent.map((s) => s.answeredStatus)).toEqual([500, 429, 400, 200]);
    expect(sent[3]?.id).toBe(ok.externalId);
  });

  it('changes template statuses (posting the webhook) and posts delivery statuses', async () => {
    hooks.clear();
    await adapter.submitTemplate(
      { name: 'oferta', language: 'pt_BR', category: 'MARKETING', components: [{ type: 'BODY', text: 'Oferta' }] },
      channel,
    );
    expect((await steer('templates/status', { name: 'nada', status: 'APPROVED' })).status).toBe(404);
    expect((await steer('templates/status', { name: 'oferta', status: 'APPROVED' })).status).toBe(204);
    expect(adapter.parseWebhook({ rawBody: (await hooks.next()).rawBody, contentType: 'application/json' })[0]).toMatchObject({
      kind: 'template-status',
      name: 'oferta',
      status: 'APPROVED',
    });
    const { templates, calls } = (await (await steer('templates', undefined, 'GET')).json()) as {
      templates: { name: string; status: string }[];
      calls: { method: string }[];
    };
    expect(templates).toEqual([expect.objectContaining({ name: 'oferta', status: 'APPROVED' })]);
    expect(calls.map((c) => c.method)).toEqual(['POST']);

    expect((await steer('status', { external_id: 'wamid.9', status: 'delivered' })).status).toBe(204);
    expect(adapter.parseWebhook({ rawBody: (await hooks.next()).rawBody, contentType: 'application/json' })).toEqual([
      expect.objectContaining({ kind: 'status', externalId: 'wamid.9', status: 'delivered' }),
    ]);
    expect((await steer('status', { external_id: 'wamid.9', status: 'lost' })).status).toBe(400);
  });

  it('sends every POST, repeated idempotency key or not, reports the repeats per recipient, and echoes the callback data', async () => {
    expect((await steer('requests', undefined, 'DELETE')).status).toBe(204);
    const once = message();
    await adapter.send(once, channel);
    expect((await steer('drop-answer', { count: 1 })).status).toBe(204);
    expect((await deliveryErrorOf(adapter.send(once, channel))).outcomeUnknown).toBe(true);
    await adapter.send(message(), channel);
    const listed = (await (await steer('sent', undefined, 'GET')).json()) as {
      sent: { id: string; answeredStatus: number }[];
      duplicates: Record<string, number>;
      duplicates_dropped: number;
    };
    expect(listed.sent.map((s) => s.answeredStatus)).toEqual([200, 0, 200]);
    // The lost answer's message went out all the same: the phone got the first one twice.
    expect(listed.duplicates).toEqual({ '5511988887777': 1 });
    expect(listed.duplicates_dropped).toBe(0);

    await steer('webhook-url', { url: hooks.url });
    hooks.clear();
    await steer('status', { external_id: listed.sent[1]!.id, status: 'delivered' });
    expect(adapter.parseWebhook({ rawBody: (await hooks.next()).rawBody, contentType: 'application/json' })).toEqual([
      expect.objectContaining({ kind: 'status', externalId: listed.sent[1]!.id, status: 'delivered', callbackData: once.uuid }),
    ]);
  });

  it('drops a repeated idempotency key only when told to play a provider that documents one', async () => {
    const deduping = await startWhatsAppSimulator({ provider: '360dialog', credentials, dedupeIdempotencyKey: true });
    try {
      const target = { ...channel, config: { base_url: deduping.baseUrl, api_version: 'cloud' } };
      const once = message();
      const first = await adapter.send(once, target);
      expect((await adapter.send(once, target)).externalId).toBe(first.externalId);
      expect([deduping.delivered().length, deduping.duplicatesDropped(), deduping.duplicates()]).toEqual([1, 1, {}]);
    } finally {
      await deduping.close();
    }
  });

  it('forgets everything on DELETE /_simulator/requests', async () => {
    expect((await steer('requests', undefined, 'DELETE')).status).toBe(204);
    expect(sim.sent()).toEqual([]);
    expect(sim.templates()).toEqual([]);
    expect(sim.templateCalls()).toEqual([]);
  });
});

describe("the simulator's provider answers", () => {
  it("refuses a wrong token with each provider's 401 body", async () => {
    const cloud = await startWhatsAppSimulator({ provider: 'cloud', credentials: { access_token: 'right', app_secret: 's' } });
    const twilio = await startWhatsAppSimulator({ provider: 'twilio', credentials: { account_sid: 'AC1', auth_token: 'right' } });
    try {
      const graph = await fetch(`${cloud.baseUrl}/v21.0/1/messages`, {
        method: 'POST',
        headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(graph.status).toBe(401);
      expect(await graph.json()).toEqual({
        error: {
          message: expect.any(String),
          type: 'OAuthException',
          code: 190,
          error_subcode: 463,
          error_data: expect.any(Object),
          fbtrace_id: expect.any(String),
        },
      });
      const form = await fetch(`${twilio.baseUrl}/2010-04-01/Accounts/AC1/Messages.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'To=x',
      });
      expect(form.status).toBe(401);
      expect(await form.json()).toEqual({
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
      const d360 = await fetch(`${sim.baseUrl}/v1/configs/templates`, { headers: { 'd360-api-key': 'wrong' } });
      expect([d360.status, ((await d360.json()) as { meta: { developer_message: string } }).meta.developer_message]).toEqual([
        401,
        'Invalid api key',
      ]);
    } finally {
      await cloud.close();
      await twilio.close();
    }
  });
});
