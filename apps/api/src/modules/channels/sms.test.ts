import { decryptCredentials, parseSecretsKey, twilioSignature } from '@atende/channels';
import { queues } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

const SID = 'AC33333333333333333333333333333333';
const TOKEN = 'sms-api-auth-token';
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(() => t.close());

const create = (fields: Record<string, string>) =>
  t.http
    .post('/api/v1/channels')
    .set(auth())
    .type('form')
    .send({ name: 'SMS', type: 'sms', ...fields });
const inboundJobs = () =>
  t.database.db.outboxJob.findMany({
    where: { tenantId: acme.tenantId, queue: queues.channelInbound.name },
    orderBy: { createdAt: 'asc' },
  });

describe('SMS channels', () => {
  it('refuses a channel without its Twilio account, token or sender, and a switch that is not on/off', async () => {
    const missing = await create({ account_sid: SID, auth_token: TOKEN });
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toContain('from_number or messaging_service_sid');
    const noToken = await create({ account_sid: SID, from_number: '+15005550006' });
    expect(noToken.status).toBe(400);
    expect(noToken.body.error_message).toContain('auth_token');
    const badSwitch = await create({ account_sid: SID, auth_token: TOKEN, from_number: '+15005550006', mms_enabled: 'maybe' });
    expect(badSwitch.status).toBe(400);
    expect(badSwitch.body).toMatchObject({ code: 'boolean_required', error_message: 'Use true or false' });
    expect(await t.database.db.channel.count({ where: { tenantId: acme.tenantId } })).toBe(0);
  });

  let channelId = '';
  let webhookUrl = '';
  it('creates the channel with its token encrypted and never returned, MMS stored as a switch, and the webhook address to give Twilio', async () => {
    const created = await create({
      account_sid: SID,
      auth_token: TOKEN,
      from_number: '+15005550006',
      mms_enabled: 'on',
      entry_point: acme.sectors[0]!.id,
    });
    expect(created.status).toBe(201);
    channelId = created.body.data.uuid;
    webhookUrl = `${t.url}/api/v1/channels/${channelId}/webhook`;
    expect(created.body.data).toMatchObject({
      type: 'sms',
      credentials_set: ['auth_token'],
      settings: { account_sid: SID, from_number: '+15005550006', mms_enabled: 'true' },
      webhook_url: webhookUrl,
    });
    expect(JSON.stringify(created.body)).not.toContain(TOKEN);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(decryptCredentials(row.credentialsEncrypted!, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY)).auth_token).toBe(TOKEN);
    const off = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ settings: { mms_enabled: 'false' } });
    expect(off.body.data.settings.mms_enabled).toBe('false');
  });

  it('answers a signed inbound SMS at once and queues it; a bad or missing X-Twilio-Signature gets 401 and nothing is stored', async () => {
    const params = new URLSearchParams({
      MessageSid: 'SMaaaa',
      SmsStatus: 'received',
      From: '+5511988887777',
      To: '+15005550006',
      Body: 'Oi',
      NumMedia: '0',
    });
    const post = (signature: string | null, payload = params) =>
      t.http
        .post(`/api/v1/channels/${channelId}/webhook`)
        .set({ 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) })
        .send(payload.toString());
    expect((await post(null)).status).toBe(401);
    expect((await post(twilioSignature(webhookUrl, params, 'other-token'))).status).toBe(401);
    const tampered = new URLSearchParams(params);
    tampered.set('Body', 'Tchau');
    expect((await post(twilioSignature(webhookUrl, params, TOKEN), tampered)).status).toBe(401);
    expect(await inboundJobs()).toEqual([]);
    const ok = await post(twilioSignature(webhookUrl, params, TOKEN));
    expect(ok.status).toBe(200);
    expect((await inboundJobs()).map((j) => j.payload)).toEqual([
      expect.objectContaining({ channel_uuid: channelId, raw_body: params.toString(), content_type: 'application/x-www-form-urlencoded' }),
    ]);
  });

  // Twilio signs the address it was given, PUBLIC_URL + path. A client picks its own
  // Host header, so a signature for http://evil.example/... sent with `Host: evil.example` must fail.
  it('checks X-Twilio-Signature against PUBLIC_URL and the path, never the Host header the client sent', async () => {
    const params = new URLSearchParams({
      MessageSid: 'SMbbbb',
      SmsStatus: 'received',
      From: '+5511988887777',
      To: '+15005550006',
      Body: 'Host?',
      NumMedia: '0',
    });
    const path = `/api/v1/channels/${channelId}/webhook`;
    const post = (signature: string) =>
      t.http
        .post(path)
        .set({ host: 'evil.example', 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature })
        .send(params.toString());
    const before = (await inboundJobs()).length;
    const forged = await post(twilioSignature(`http://evil.example${path}`, params, TOKEN));
    expect(forged.status).toBe(401);
    expect(await inboundJobs()).toHaveLength(before);
    expect(t.env.PUBLIC_URL).toBe(t.url);
    const genuine = await post(twilioSignature(`${t.env.PUBLIC_URL}${path}`, params, TOKEN));
    expect(genuine.status).toBe(200);
    expect(await inboundJobs()).toHaveLength(before + 1);
    // The address shown to the admin is the same one, whatever Host the request came with.
    const shown = await t.http.get(`/api/v1/channels/${channelId}`).set(auth()).set('host', 'evil.example');
    expect(shown.body.data.webhook_url).toBe(`${t.env.PUBLIC_URL}${path}`);
  });

  it("gives the composer the channel's MMS switch with the conversation (and nothing else of its settings)", async () => {
    const contact = await t.database.db.contact.create({ data: { tenantId: acme.tenantId, name: 'Ana', phoneNumber: '+5511988887777' } });
    const conversation = await t.database.db.conversation.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        contactId: contact.id,
        channelId,
        userId: acme.users.agent!.id,
        state: 'answered',
        contactInteracted: true,
        ticketNumber: 5,
      },
    });
    const agent = await t.login('agent@acme.test');
    const one = await t.http.get(`/api/v1/conversations/${conversation.id}`).set({ Authorization: `Bearer ${agent}` });
    expect(one.status).toBe(200);
    expect(one.body.data.channel).toEqual({
      uuid: channelId,
      type: 'sms',
      name: 'SMS',
      template_required_on_outbound_start: false,
      settings: { mms_enabled: 'false' },
    });
    const list = await t.http.get('/api/v2/conversations').set({ Authorization: `Bearer ${agent}` });
    expect(list.body.data.find((c: { uuid: string }) => c.uuid === conversation.id)?.channel.settings).toEqual({ mms_enabled: 'false' });
  });
});
