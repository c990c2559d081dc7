import { decryptCredentials, parseSecretsKey } from '@atende/channels';
import { startMetaSimulator, type MetaSimulator } from '@atende/simulators/meta';
import { queues } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

/** Messenger and Instagram channels at the api: creation, the hub.challenge handshake, signed webhooks queued for the worker. */
const PAGE = '100200300111';
const secrets = { access_token: 'EAAapi-page-token', app_secret: 'api-app-secret', verify_token: 'api-verify' };
let t: TestApp;
let sim: MetaSimulator | null = null;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });

beforeAll(async () => {
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  acme = await t.tenant('Acme', { users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(async () => {
  await sim?.close();
  await t.close();
});

const create = (fields: Record<string, string>) =>
  t.http
    .post('/api/v1/channels')
    .set(auth())
    .type('form')
    .send({ name: 'Messenger', type: 'messenger', base_url: 'http://127.0.0.1:1', ...fields });
const inboundJobs = () => t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.channelInbound.name } });

describe('Messenger channels', () => {
  it('refuses a channel without its page id or page token, storing nothing', async () => {
    const missing = await create({ app_secret: secrets.app_secret, verify_token: secrets.verify_token });
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toContain('page_id');
    expect(missing.body.error_message).toContain('access_token');
    expect(await t.database.db.channel.count({ where: { tenantId: acme.tenantId, type: 'messenger' } })).toBe(0);
  });

  let channelId = '';
  it('creates the channel with its credentials encrypted and never returned, and answers the handshake only with the verify token', async () => {
    const created = await create({ page_id: PAGE, ...secrets, entry_point: acme.sectors[0]!.id });
    expect(created.status).toBe(201);
    channelId = created.body.data.uuid;
    expect(created.body.data).toMatchObject({
      type: 'messenger',
      settings: { page_id: PAGE },
      webhook_url: `${t.url}/api/v1/channels/${channelId}/webhook`,
    });
    expect([...created.body.data.credentials_set].sort()).toEqual(['access_token', 'app_secret', 'verify_token']);
    expect(JSON.stringify(created.body)).not.toContain(secrets.access_token);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(row.credentialsEncrypted).not.toContain(secrets.access_token);
    expect(decryptCredentials(row.credentialsEncrypted!, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY)).access_token).toBe(
      secrets.access_token,
    );

    sim = await startMetaSimulator({
      object: 'page',
      pageId: PAGE,
      pageToken: secrets.access_token,
      appSecret: secrets.app_secret,
      webhook: { url: `${t.url}/api/v1/channels/${channelId}/webhook`, verifyToken: secrets.verify_token },
    });
    const handshake = await sim.verifyWebhook();
    expect(handshake.status).toBe(200);
    expect(handshake.body).toMatch(/^[0-9a-f]{12}$/);
    const wrong = await t.http
      .get(`/api/v1/channels/${channelId}/webhook`)
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' });
    expect(wrong.status).toBe(403);
  });

  it('queues a signed delivery for the worker, and refuses a bad X-Hub-Signature-256 with 401 storing nothing', async () => {
    const ana = { id: '7000111000222', firstName: 'Ana' };
    const forged = await sim!.postWebhook(
      {
        object: 'page',
        entry: [{ id: PAGE, messaging: [{ sender: { id: ana.id }, recipient: { id: PAGE }, message: { mid: 'm_forged', text: 'oi' } }] }],
      },
      'not-the-app-secret',
    );
    expect(forged).toBe(401);
    expect(await inboundJobs()).toHaveLength(0);
    const unsigned = await t.http
      .post(`/api/v1/channels/${channelId}/webhook`)
      .set('content-type', 'application/json')
      .send('{"object":"page","entry":[]}');
    expect(unsigned.status).toBe(401);
    expect(await inboundJobs()).toHaveLength(0);

    const { status, body } = await sim!.sendInbound({ from: ana, text: 'Oi, quero ajuda' });
    expect(status).toBe(200);
    const jobs = await inboundJobs();
    expect(jobs).toHaveLength(1);
    const payload = jobs[0]!.payload as { raw_body: string; channel_uuid: string };
    expect(payload.channel_uuid).toBe(channelId);
    expect(JSON.parse(payload.raw_body)).toEqual(body);
  });

  it('creates an Instagram channel the same way', async () => {
    const created = await create({ type: 'instagram', name: 'Instagram', page_id: PAGE, ...secrets });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ type: 'instagram', webhook_url: expect.stringContaining('/webhook') });
  });
});
