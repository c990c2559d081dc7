import { createHmac } from 'node:crypto';
import { encryptCredentials, parseSecretsKey } from '@atende/channels';
import { queues } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let dialog: string;
let cloud: string;

const body = JSON.stringify({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'w',
      changes: [{ field: 'messages', value: { messages: [{ from: '5511988887777', id: 'wamid.1', type: 'text', text: { body: 'Oi' } }] } }],
    },
  ],
});

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { admin: ['admin'] } });
  const key = parseSecretsKey(t.env.CHANNEL_SECRETS_KEY);
  const create = (name: string, type: string, config: object, credentials: object) =>
    t.database.db.channel
      .create({
        data: {
          tenantId: acme.tenantId,
          workspaceId: acme.workspaceId,
          name,
          type,
          config,
          credentialsEncrypted: encryptCredentials({ ...credentials }, key),
        },
      })
      .then((c) => c.id);
  dialog = await create('360', 'whatsapp_360dialog', { api_version: 'cloud' }, { api_key: 'k', webhook_secret: 'hook-secret' });
  cloud = await create(
    'Cloud',
    'whatsapp_cloud',
    { phone_number_id: '1', waba_id: '2' },
    { access_token: 'a', app_secret: 'app-secret', verify_token: 'verify-me' },
  );
});
afterAll(() => t.close());

const inboundJobs = () =>
  t.database.db.outboxJob.findMany({
    where: { tenantId: acme.tenantId, queue: queues.channelInbound.name },
    orderBy: { createdAt: 'asc' },
  });

describe('provider webhooks', () => {
  it('refuses a delivery it cannot verify with 401 and stores nothing', async () => {
    const post = (id: string, headers: Record<string, string>, payload = body) =>
      t.http
        .post(`/api/v1/channels/${id}/webhook`)
        .set({ 'content-type': 'application/json', ...headers })
        .send(payload);
    expect((await post(dialog, {})).status).toBe(401);
    expect((await post(dialog, { 'x-atende-webhook-token': 'wrong' })).status).toBe(401);
    const signature = `sha256=${createHmac('sha256', 'app-secret').update(body).digest('hex')}`;
    expect((await post(cloud, { 'x-hub-signature-256': signature }, body.replace('Oi', 'Tchau'))).status).toBe(401);
    expect((await post(cloud, { 'x-hub-signature-256': 'sha256=00' })).status).toBe(401);
    // An unknown channel answers exactly like a bad signature (no channel-id oracle).
    const badSignature = await post(dialog, { 'x-atende-webhook-token': 'wrong' });
    for (const unknown of [
      await post('00000000-0000-4000-8000-000000000000', { 'x-atende-webhook-token': 'hook-secret' }),
      await post('not-a-uuid', {}),
    ]) {
      expect(unknown.status).toBe(badSignature.status);
      expect({ ...unknown.body, request_id: undefined }).toEqual({ ...badSignature.body, request_id: undefined });
    }
    expect(await inboundJobs()).toEqual([]);
  });

  it('acknowledges a verified delivery at once and queues its exact bytes for the worker', async () => {
    const ok = await t.http
      .post(`/api/v1/channels/${dialog}/webhook`)
      .set({ 'content-type': 'application/json', 'x-atende-webhook-token': 'hook-secret' })
      .send(body);
    expect(ok.status).toBe(200);
    const signature = `sha256=${createHmac('sha256', 'app-secret').update(body).digest('hex')}`;
    const signed = await t.http
      .post(`/api/v1/channels/${cloud}/webhook`)
      .set({ 'content-type': 'application/json', 'x-hub-signature-256': signature })
      .send(body);
    expect(signed.status).toBe(200);
    const jobs = await inboundJobs();
    expect(jobs.map((j) => j.payload)).toEqual([
      expect.objectContaining({ tenant_uuid: acme.tenantId, channel_uuid: dialog, raw_body: body, content_type: 'application/json' }),
      expect.objectContaining({ channel_uuid: cloud, raw_body: body }),
    ]);
  });

  it('answers the Cloud API verify-token handshake only with the right token', async () => {
    const ok = await t.http
      .get(`/api/v1/channels/${cloud}/webhook`)
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    const wrong = await t.http
      .get(`/api/v1/channels/${cloud}/webhook`)
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' });
    expect(wrong.status).toBe(403);
    const unknown = await t.http
      .get('/api/v1/channels/00000000-0000-4000-8000-000000000000/webhook')
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1' });
    expect(unknown.status).toBe(403);
    expect(unknown.body.error_message).toBe(wrong.body.error_message);
  });
});
