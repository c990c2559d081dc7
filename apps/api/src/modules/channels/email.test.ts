import { decryptCredentials, EMAIL_SECRET_HEADER, forwardingAddress, parseSecretsKey } from '@atende/channels';
import { queues } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

/** E-mail channels in the channels api: SMTP settings checked, password write-only, forwarding address answered at creation and to channel managers only. */
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });

beforeAll(async () => {
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1', EMAIL_INBOUND_DOMAIN: 'inbound.atende.test' });
  acme = await t.tenant('Acme', { users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(async () => {
  await t.close();
});

const fields = {
  name: 'Suporte',
  type: 'email',
  smtp_host: '127.0.0.1',
  smtp_port: '2525',
  smtp_secure: 'false',
  from_address: 'suporte@acme.test',
  username: 'suporte',
  password: 'smtp-secret-pass',
};
const create = (overrides: Record<string, string> = {}) =>
  t.http
    .post('/api/v1/channels')
    .set(auth())
    .type('form')
    .send({ ...fields, ...overrides });
const channelCount = () => t.database.db.channel.count({ where: { tenantId: acme.tenantId } });

describe('E-mail channels', () => {
  it('refuses a missing password, a bad sender address and an SMTP host on a private network, storing nothing', async () => {
    const missing = await create({ password: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toContain('password');
    const badFrom = await create({ from_address: 'not-an-address' });
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.errors?.[0]?.path ?? badFrom.body.error_message).toContain('from_address');
    const privateHost = await create({ smtp_host: '10.1.2.3' });
    expect(privateHost.status).toBe(400);
    expect(privateHost.body.code).toBe('outbound_address_not_allowed');
    expect(await channelCount()).toBe(0);
  });

  let channelId = '';
  let forwarding = '';
  it('creates the channel with the password encrypted and never returned, answering the forwarding address once', async () => {
    const created = await create({ entry_point: acme.sectors[0]!.id });
    expect(created.status).toBe(201);
    channelId = created.body.data.uuid;
    expect(JSON.stringify(created.body)).not.toContain('smtp-secret-pass');
    expect(created.body.data).toMatchObject({
      type: 'email',
      credentials_set: ['password', 'webhook_secret'],
      settings: { smtp_host: '127.0.0.1', from_address: 'suporte@acme.test' },
    });
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    const secrets = decryptCredentials(row.credentialsEncrypted!, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY));
    expect(secrets.password).toBe('smtp-secret-pass');
    forwarding = created.body.inbound_token;
    expect(forwarding).toBe(forwardingAddress(channelId, String(secrets.webhook_secret), 'inbound.atende.test'));
    // Those who manage channels read the forwarding address again in the channel's settings;
    // anyone else who may read channels (an agent) never gets it, nor the password.
    const read = await t.http.get(`/api/v1/channels/${channelId}`).set(auth());
    expect(read.body.data.inbound_address).toBe(forwarding);
    expect(JSON.stringify(read.body)).not.toContain('smtp-secret-pass');
    const agent = await t.login('agent@acme.test');
    const agentRead = await t.http.get(`/api/v1/channels/${channelId}`).set({ Authorization: `Bearer ${agent}` });
    expect(agentRead.status).toBe(200);
    expect(agentRead.body.data.inbound_address).toBeNull();
    expect(JSON.stringify(agentRead.body)).not.toContain(String(secrets.webhook_secret).slice(0, 24));
  });

  it('takes a raw message posted to the webhook with the channel secret, refusing others with 401', async () => {
    const secret = String(
      decryptCredentials(
        (await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } })).credentialsEncrypted!,
        parseSecretsKey(t.env.CHANNEL_SECRETS_KEY),
      ).webhook_secret,
    );
    const raw = 'From: ana@cliente.test\r\nTo: suporte@acme.test\r\nSubject: Oi\r\nMessage-ID: <raw@cliente.test>\r\n\r\nOlá';
    const refused = await t.http
      .post(`/api/v1/channels/${channelId}/webhook`)
      .set('content-type', 'message/rfc822')
      .set(EMAIL_SECRET_HEADER, 'wrong')
      .send(raw);
    expect(refused.status).toBe(401);
    const ok = await t.http
      .post(`/api/v1/channels/${channelId}/webhook`)
      .set('content-type', 'message/rfc822')
      .set(EMAIL_SECRET_HEADER, secret)
      .send(raw);
    expect(ok.status).toBe(200);
    const jobs = await t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.channelInbound.name } });
    expect(jobs.map((j) => j.payload)).toEqual([expect.objectContaining({ channel_uuid: channelId, raw_body: raw })]);
  });

  it('takes a mailbox read by IMAP, logging in by OAuth instead of a password, and checks imap_host like smtp_host', async () => {
    const imap = { imap_host: '127.0.0.1', imap_port: '1993', imap_secure: 'false', sent_mailbox: 'Sent', oauth_provider: 'google' };
    const { password: _password, ...withoutPassword } = fields;
    const createOAuth = (overrides: Record<string, string>) =>
      t.http
        .post('/api/v1/channels')
        .set(auth())
        .type('form')
        .send({ ...withoutPassword, ...imap, refresh_token: 'google-refresh', ...overrides });
    const privateImap = await createOAuth({ imap_host: '10.1.2.3' });
    expect(privateImap.status).toBe(400);
    expect(privateImap.body.code).toBe('outbound_address_not_allowed');
    const badProvider = await createOAuth({ oauth_provider: 'yahoo' });
    expect(badProvider.body.fields?.[0]).toMatchObject({ path: 'oauth_provider', code: 'oauth_provider_invalid' });
    const created = await createOAuth({ name: 'Suporte IMAP' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ credentials_set: ['refresh_token', 'webhook_secret'], settings: imap });
    expect(JSON.stringify(created.body)).not.toContain('google-refresh');
    const moved = await t.http
      .patch(`/api/v1/channels/${created.body.data.uuid}`)
      .set(auth())
      .send({ settings: { imap_host: '192.168.0.10' } });
    expect(moved.body.code).toBe('outbound_address_not_allowed');
  });

  it('refuses an edit moving the SMTP host to a private address and keeps the password when none is given', async () => {
    const moved = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ settings: { smtp_host: '192.168.0.10' } });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('outbound_address_not_allowed');
    const renamed = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ name: 'Atendimento', settings: { smtp_port: '587' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.credentials_set).toEqual(['password', 'webhook_secret']);
  });
});
