import { decryptCredentials, parseSecretsKey } from '@atende/channels';
import { queues } from '@atende/contract';
import { startWhatsAppWebSimulator, type WhatsAppWebSimulator } from '@atende/simulators/whatsapp-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

/**
 * WhatsApp Web channels in the api: created after the bridge took the channel's webhook (our secret
 * in its Authorization header), its deliveries taken only with that secret, and the phone's state and
 * QR code read from the bridge for those who manage channels.
 */
const INSTANCE = 'loja-centro';
const KEY = 'instance-token-api';
let t: TestApp;
let sim: WhatsAppWebSimulator;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;
const auth = (token = admin) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  sim = await startWhatsAppWebSimulator({ instance: INSTANCE, apiKey: KEY, exposeApiKey: false });
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  acme = await t.tenant('Acme', { users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const create = (fields: Record<string, string>) =>
  t.http
    .post('/api/v1/channels')
    .set(auth())
    .type('form')
    .send({ name: 'WhatsApp loja', type: 'whatsapp_web', base_url: sim.baseUrl, instance: INSTANCE, ...fields });
const state = (id: string, token = admin) => t.http.get(`/api/v1/channels/${id}/whatsapp-web`).set(auth(token));
const key = () => parseSecretsKey(t.env.CHANNEL_SECRETS_KEY);

describe('WhatsApp Web channels', () => {
  it('refuses a key or an instance the bridge refuses, and a missing instance, storing nothing', async () => {
    const badKey = await create({ api_key: 'wrong' });
    expect(badKey.status).toBe(400);
    expect(badKey.body).toMatchObject({ code: 'channel_credentials_refused', fields: [expect.objectContaining({ path: 'api_key' })] });
    const badInstance = await create({ api_key: KEY, instance: 'outra' });
    expect(badInstance.body.code).toBe('channel_credentials_refused');
    const missing = await create({ api_key: KEY, instance: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toContain('instance');
    expect(await t.database.db.channel.count({ where: { tenantId: acme.tenantId } })).toBe(0);
    expect(sim.webhook()).toBeNull();
  });

  let channelId = '';
  it('creates the channel after pointing the instance’s webhook at it with a secret of ours', async () => {
    const created = await create({ api_key: KEY });
    expect(created.status).toBe(201);
    channelId = created.body.data.uuid;
    expect(created.body.data).toMatchObject({
      type: 'whatsapp_web',
      settings: { base_url: sim.baseUrl, instance: INSTANCE },
      credentials_set: ['api_key', 'webhook_secret'],
      webhook_url: `${t.url}/api/v1/channels/${channelId}/webhook`,
    });
    expect(JSON.stringify(created.body)).not.toContain(KEY);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    const secret = decryptCredentials(row.credentialsEncrypted!, key()).webhook_secret;
    expect(sim.webhook()).toMatchObject({ url: created.body.data.webhook_url, headers: { authorization: `Bearer ${secret}` } });
    // One phone, one channel: the same instance of the same bridge cannot be connected twice.
    const twice = await create({ api_key: KEY, base_url: `${sim.baseUrl}/` });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('channel_identity_taken');
  });

  it('queues the bridge’s deliveries carrying the secret and refuses the others with 401', async () => {
    await sim.sendInbound({ from: { phone: '5511987654321', name: 'Ana' }, text: 'Oi' });
    expect(await sim.postEvent('messages.upsert', { key: { remoteJid: '5511987654321@s.whatsapp.net', id: 'X' } }, {})).toBe(401);
    expect(await sim.postEvent('messages.upsert', {}, { authorization: 'Bearer wrong' })).toBe(401);
    const jobs = await t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.channelInbound.name } });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.payload).toMatchObject({ channel_uuid: channelId, raw_body: expect.stringContaining('"conversation":"Oi"') });
  });

  it('answers the phone’s state, and the QR code to scan while it is not linked', async () => {
    expect((await state(channelId)).body).toEqual({ data: { state: 'open', qr: null, code: null } });
    await sim.setConnection('close');
    const linking = await state(channelId);
    expect(linking.status).toBe(200);
    expect(linking.body.data).toEqual({
      state: 'connecting',
      qr: expect.stringMatching(/^data:image\/png;base64,/),
      // The bridge's QR text: WhatsApp's pairing reference and keys, comma-separated.
      code: expect.stringMatching(/^2@[A-Za-z0-9+/=]+,[A-Za-z0-9+/=]+$/),
    });
    await sim.setConnection('open');
  });

  it('refuses the state to agents, of another type or tenant, and says why when the bridge refuses or is down', async () => {
    const agent = await t.login('agent@acme.test');
    expect((await state(channelId, agent)).status).toBe(403);
    const other = await t.tenant('Other', { users: { admin: ['admin'] } });
    expect((await state(channelId, await t.login('admin@other.test'))).status).toBe(404);
    const custom = await t.http.post('/api/v1/channels').set(auth()).type('form').send({ name: 'API', type: 'custom' });
    const notWeb = await state(custom.body.data.uuid);
    expect(notWeb.status).toBe(422);
    expect(notWeb.body.code).toBe('channel_not_whatsapp_web');
    sim.failNext(1, 401, 'Unauthorized');
    const refused = await state(channelId);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('channel_credentials_refused');
    sim.failNext(1, 500, 'Internal Server Error');
    const failing = await state(channelId);
    expect(failing.status).toBe(502);
    expect(failing.body.code).toBe('channel_provider_unavailable');
    expect(other.tenantId).not.toBe(acme.tenantId);
  });
});
