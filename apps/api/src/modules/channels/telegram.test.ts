import { decryptCredentials, parseSecretsKey } from '@atende/channels';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/simulators/telegram';
import { queues } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

const TOKEN = '7000000999:AAapi-test-token';
let t: TestApp;
let sim: TelegramSimulator;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });
const ana = { id: 424242, firstName: 'Ana', username: 'ana_s' };

beforeAll(async () => {
  sim = await startTelegramSimulator({ token: TOKEN });
  // The test app's PUBLIC_URL is its own address (t.url): the webhook address is built on it.
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
    .send({ name: 'Telegram', type: 'telegram', base_url: sim.baseUrl, ...fields });
const channelCount = () => t.database.db.channel.count({ where: { tenantId: acme.tenantId } });
const inboundJobs = () =>
  t.database.db.outboxJob.findMany({
    where: { tenantId: acme.tenantId, queue: queues.channelInbound.name },
    orderBy: { createdAt: 'asc' },
  });
const key = () => parseSecretsKey(t.env.CHANNEL_SECRETS_KEY);

describe('Telegram channels', () => {
  it('refuses a token the Bot API refuses, a missing token and an unreachable API, storing nothing', async () => {
    const bad = await create({ bot_token: '7000000999:AAwrong' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'channel_credentials_refused' });
    expect(JSON.stringify(bad.body)).not.toContain('AAwrong');
    const missing = await create({});
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toContain('bot_token');
    const down = await create({ bot_token: TOKEN, base_url: 'http://127.0.0.1:9' });
    expect(down.status).toBe(502);
    expect(down.body.code).toBe('channel_provider_unavailable');
    // Our own checks come before the provider's: a bad entry point leaves the bot's webhook alone.
    const badEntry = await create({ bot_token: TOKEN, entry_point: '00000000-0000-4000-8000-000000000000' });
    expect(badEntry.status).toBe(400);
    expect(await channelCount()).toBe(0);
    expect(sim.webhook()).toBeNull();
  });

  let channelId = '';
  it('creates the channel after getMe and setWebhook with its webhook address and a secret of ours', async () => {
    const created = await create({ bot_token: TOKEN, webhook_secret: 'admin-chosen', entry_point: acme.sectors[0]!.id });
    expect(created.status).toBe(201);
    channelId = created.body.data.uuid;
    expect(created.body.data).toMatchObject({
      type: 'telegram',
      credentials_set: ['bot_token', 'webhook_secret'],
      webhook_url: `${t.url}/api/v1/channels/${channelId}/webhook`,
    });
    expect(JSON.stringify(created.body)).not.toContain(TOKEN);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    const secrets = decryptCredentials(row.credentialsEncrypted!, key());
    expect(secrets.bot_token).toBe(TOKEN);
    expect(secrets.webhook_secret).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(secrets.webhook_secret).not.toBe('admin-chosen');
    expect(sim.webhook()).toEqual({ url: `${t.url}/api/v1/channels/${channelId}/webhook`, secret: secrets.webhook_secret });
  });

  it('takes updates carrying the secret and refuses the others with 401, storing nothing for them', async () => {
    const update = await sim.sendInbound({ from: ana, text: 'Oi' });
    expect(await sim.postUpdate({ ...update, update_id: 1 }, 'wrong-secret')).toBe(401);
    expect(await sim.postUpdate({ ...update, update_id: 2 }, null)).toBe(401);
    const jobs = await inboundJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.payload).toMatchObject({ channel_uuid: channelId, raw_body: JSON.stringify(update) });
  });

  it('sets the webhook again with a new secret when the token changes, and keeps everything when the new token is refused', async () => {
    const before = sim.webhook();
    const refused = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ credentials: { bot_token: '7000000999:AAnope' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('channel_credentials_refused');
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(decryptCredentials(row.credentialsEncrypted!, key()).bot_token).toBe(TOKEN);
    expect(sim.webhook()).toEqual(before);

    // An admin cannot set our webhook secret; renaming leaves the webhook alone.
    const renamed = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ name: 'Telegram Bot', credentials: { webhook_secret: 'mine' } });
    expect(renamed.status).toBe(200);
    expect(
      decryptCredentials((await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } })).credentialsEncrypted!, key())
        .webhook_secret,
    ).toBe(before!.secret);

    const again = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ credentials: { bot_token: TOKEN.replace('AA', 'AB') } });
    expect(again.status).toBe(400); // the simulator takes one token only: a different one is refused
    const same = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth())
      .send({ settings: { base_url: `${sim.baseUrl}/` } });
    expect(same.status).toBe(200);
    const secret = decryptCredentials(
      (await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } })).credentialsEncrypted!,
      key(),
    ).webhook_secret;
    expect(secret).not.toBe(before!.secret);
    expect(sim.webhook()).toEqual({ url: before!.url, secret });
  });

  it("queues an agent's answer in a Telegram conversation for the worker's channel-delivery", async () => {
    const contact = await t.database.db.contact.create({ data: { tenantId: acme.tenantId, name: 'Ana' } });
    await t.database.db.contactIdentity.create({
      data: { tenantId: acme.tenantId, channelId, contactId: contact.id, identifier: String(ana.id) },
    });
    const conversation = await t.database.db.conversation.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        contactId: contact.id,
        channelId,
        userId: acme.users.agent!.id,
        state: 'answered',
        contactInteracted: true,
        ticketNumber: 77,
      },
    });
    const agent = await t.login('agent@acme.test');
    const sent = await t.http
      .post(`/api/v1/conversations/${conversation.id}/messages`)
      .set({ Authorization: `Bearer ${agent}` })
      .send({ content: 'Olá, Ana!' });
    expect(sent.status).toBeLessThan(300);
    const jobs = await t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.channelDelivery.name } });
    const message = await t.database.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, content: 'Olá, Ana!' } });
    expect(message).toMatchObject({ state: 'pending', status: 'sending' });
    expect(jobs.map((j) => j.payload)).toEqual([expect.objectContaining({ message_uuid: message.id })]);
  });
});
