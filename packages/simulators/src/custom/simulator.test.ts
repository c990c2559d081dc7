import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhookBody } from '@atende/channels';
import { startCustomChannelSimulator, type CustomChannelSimulator } from './simulator';

const secret = 'sim-secret';
let sim: CustomChannelSimulator;
beforeAll(async () => {
  sim = await startCustomChannelSimulator({ secret });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const body = JSON.stringify({
  event: 'message',
  message: {
    uuid: '0b9f0f5e-3c1a-4d7e-9a57-1e1f6f0a0c01',
    conversation_uuid: '0b9f0f5e-3c1a-4d7e-9a57-1e1f6f0a0c02',
    content: 'hi',
    annex: null,
    author: 'USER',
    created_at: '2026-01-01T00:00:00.000Z',
  },
  contact: { uuid: '0b9f0f5e-3c1a-4d7e-9a57-1e1f6f0a0c03', phone_number: '+5511999999999', identifier: null },
});
const post = (raw: string, signature: string | undefined) =>
  fetch(sim.webhookUrl, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'k1', ...(signature ? { 'x-atende-signature': signature } : {}) },
  });

describe('custom channel simulator', () => {
  it('accepts a correctly signed post, records it and answers an id', async () => {
    const res = await post(body, signWebhookBody(body, secret));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'sim-1' });
    expect(sim.delivered()).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({ idempotencyKey: 'k1', rawBody: body, body: { message: { content: 'hi' } } });
  });

  it('treats a repeated Idempotency-Key as a new message unless told to play a receiver that honours it', async () => {
    const signature = signWebhookBody(body, secret);
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push(((await (await post(body, signature)).json()) as { id: string }).id);
    expect(ids).toEqual(['sim-1', 'sim-2']);
    const careful = await startCustomChannelSimulator({ secret, dedupeIdempotencyKey: true });
    try {
      const again = () =>
        fetch(careful.webhookUrl, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'k1', 'x-atende-signature': signature },
        });
      const answers = [await (await again()).json(), await (await again()).json()];
      expect(answers).toEqual([{ id: 'sim-1' }, { id: 'sim-1' }]);
    } finally {
      await careful.close();
    }
  });

  it('rejects a bad signature, a signature over other bytes and a missing one', async () => {
    expect((await post(body, signWebhookBody(body, 'other-secret'))).status).toBe(401);
    expect((await post(body, signWebhookBody(`${body} `, secret))).status).toBe(401);
    expect((await post(body, undefined)).status).toBe(401);
    expect(sim.requests).toHaveLength(0);
    expect(sim.rejected).toHaveLength(3);
  });

  it('answers planned failures for the next N requests, then 200 again', async () => {
    sim.failNext(2, 500);
    sim.failNext(1, 429);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(body, signWebhookBody(body, secret))).status);
    expect(statuses).toEqual([500, 500, 429, 200]);
    expect(sim.delivered()).toHaveLength(1);
  });

  it('can be steered over HTTP by another process', async () => {
    const base = sim.webhookUrl.replace(/\/webhook$/, '');
    await fetch(`${base}/_simulator/plan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, status: 400 }),
    });
    expect((await post(body, signWebhookBody(body, secret))).status).toBe(400);
    const listed = (await (await fetch(`${base}/_simulator/requests`)).json()) as { requests: { answeredStatus: number }[] };
    expect(listed.requests.map((r) => r.answeredStatus)).toEqual([400]);
  });
});
