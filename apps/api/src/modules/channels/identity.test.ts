import { createHmac } from 'node:crypto';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/simulators/telegram';
import { queues, type ChannelInboundJob } from '@atende/contract';
import { Prisma } from '@atende/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

/**
 * The page, account, number or bot a provider routes its webhooks by belongs to one
 * live channel of one tenant, held by a unique index. Every path (the channel form, an update, the
 * Meta setup) answers 409 channel_identity_taken, and the Meta app webhook never stores one delivery
 * in two tenants.
 */
const APP_SECRET = 'identity-app-secret';
const BOT_TOKEN = '7000000123:AAidentity-test-token';
const META = { access_token: 'EAAidentity', app_secret: 'page-app-secret', verify_token: 'page-verify' };
const TWILIO = { account_sid: 'AC44444444444444444444444444444444', auth_token: 'twilio-token' };
const TAKEN = 'This page, account, number or bot is already connected to another channel';
let t: TestApp;
let sim: TelegramSimulator;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  sim = await startTelegramSimulator({ token: BOT_TOKEN });
  t = await startTestApp({
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    META_APP_ID: '1234567890',
    META_APP_SECRET: APP_SECRET,
    META_VERIFY_TOKEN: 'platform-verify',
  });
  acme = await t.tenant('Acme', { users: { admin: ['admin'] } });
  globex = await t.tenant('Globex', { users: { admin: ['admin'] } });
  tokens.acme = await t.login('admin@acme.test');
  tokens.globex = await t.login('admin@globex.test');
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const as = (who: 'acme' | 'globex') => ({ Authorization: `Bearer ${tokens[who]}` });
/** The admin screen's channel form (form-encoded, as the request). */
const create = (who: 'acme' | 'globex', type: string, fields: Record<string, string>) =>
  t.http
    .post('/api/v1/channels')
    .set(as(who))
    .type('form')
    .send({ name: `${type} of ${who}`, type, ...fields });
const liveChannels = (identity: string) =>
  t.database.db.channel.findMany({ where: { providerIdentity: identity, deletedAt: null }, select: { id: true, tenantId: true } });
const sign = (body: string) => `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
const metaAppWebhook = (kind: 'messenger' | 'instagram', body: string) =>
  t.http
    .post(`/api/v1/channels/meta/${kind}/webhook`)
    .set('Content-Type', 'application/json')
    .set('X-Hub-Signature-256', sign(body))
    .send(body);
const entry = (id: string, text: string) => ({
  id,
  time: Date.now(),
  messaging: [{ sender: { id: `psid-${text}` }, recipient: { id }, timestamp: Date.now(), message: { mid: `m-${text}`, text } }],
});
const inboundJobs = () =>
  t.database.db.outboxJob.findMany({ where: { queue: queues.channelInbound.name, tenantId: { in: [acme.tenantId, globex.tenantId] } } });

function expectTaken(answer: { status: number; body: { code?: string; error_message?: string; fields?: unknown } }, field: string) {
  expect(answer.status).toBe(409);
  expect(answer.body).toMatchObject({ code: 'channel_identity_taken', error_message: TAKEN });
  expect(JSON.stringify(answer.body)).toContain(field);
}

/** Each identity: what the owner's channel holds, what another tenant sends for the same identity, and the setting named. */
const CASES = [
  {
    what: 'Meta page id',
    type: 'messenger',
    identity: 'messenger:500100',
    field: 'page_id',
    mine: { page_id: '500100', ...META },
    theirs: { page_id: '500100', ...META },
  },
  {
    what: 'Instagram account id',
    type: 'instagram',
    identity: 'instagram:17841400000500200',
    field: 'instagram_account_id',
    mine: { page_id: '500200', instagram_account_id: '17841400000500200', ...META },
    theirs: { page_id: '500299', instagram_account_id: '17841400000500200', ...META },
  },
  {
    what: 'WhatsApp phone-number id (Cloud API, and a {hash} provider speaking it)',
    type: 'whatsapp_cloud',
    theirType: 'a1b2c3d4e5f6a1b2c3d4e5f6',
    identity: 'whatsapp:500300',
    field: 'phone_number_id',
    mine: { phone_number_id: '500300', waba_id: '9', ...META },
    theirs: { phone_number_id: '500300', waba_id: '8', ...META },
  },
  {
    what: '360dialog channel (its API key)',
    type: 'whatsapp_360dialog',
    identity: null,
    field: 'api_key',
    mine: { api_key: 'D360-identity-key' },
    theirs: { api_key: 'D360-identity-key' },
  },
  {
    what: 'Twilio account + SMS number (written differently)',
    type: 'sms',
    identity: `sms:${TWILIO.account_sid.toLowerCase()}:15005550006`,
    field: 'from_number',
    mine: { ...TWILIO, from_number: '+15005550006' },
    theirs: { ...TWILIO, from_number: '+1 (500) 555-0006' },
  },
  {
    what: 'Twilio account + WhatsApp number',
    type: 'whatsapp_twilio',
    identity: `whatsapp_twilio:${TWILIO.account_sid.toLowerCase()}:14155238886`,
    field: 'from_number',
    mine: { ...TWILIO, from_number: 'whatsapp:+14155238886' },
    theirs: { ...TWILIO, from_number: '+14155238886' },
  },
] as const;

describe('provider identities belong to one live channel', () => {
  it.each(CASES)("refuses another tenant's channel, and a second one of the same tenant, with the $what the first holds", async (c) => {
    const mine = await create('acme', c.type, c.mine);
    expect(mine.status).toBe(201);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: mine.body.data.uuid } });
    if (c.identity) expect(row.providerIdentity).toBe(c.identity);
    expect(row.providerIdentity).toMatch(new RegExp(`^${c.type === 'whatsapp_cloud' ? 'whatsapp' : c.type}:`));
    // The case: an admin of another tenant names the same identity: 409, nothing stored.
    expectTaken(await create('globex', 'theirType' in c ? c.theirType : c.type, c.theirs), c.field);
    // A webhook delivery must land once in one tenant too: no twin channel in the same workspace either.
    expectTaken(await create('acme', c.type, c.theirs), c.field);
    expect(await liveChannels(row.providerIdentity!)).toEqual([{ id: row.id, tenantId: acme.tenantId }]);
    expect(await t.database.db.channel.count({ where: { tenantId: globex.tenantId, type: 'theirType' in c ? c.theirType : c.type } })).toBe(
      0,
    );
  });

  it("refuses another tenant's Telegram channel of the same bot before its webhook is pointed away from the owner's channel", async () => {
    const mine = await create('acme', 'telegram', { bot_token: BOT_TOKEN, base_url: sim.baseUrl });
    expect(mine.status).toBe(201);
    const hook = sim.webhook();
    expect(hook?.url).toContain(mine.body.data.uuid);
    expectTaken(await create('globex', 'telegram', { bot_token: BOT_TOKEN, base_url: sim.baseUrl }), 'bot_token');
    // Same bot id, another token (revoked and reissued by BotFather): still the same bot.
    expectTaken(await create('acme', 'telegram', { bot_token: '7000000123:AAanother-token-same-bot', base_url: sim.baseUrl }), 'bot_token');
    expect(sim.webhook()).toEqual(hook);
    expect(await liveChannels('telegram:7000000123')).toEqual([{ id: mine.body.data.uuid, tenantId: acme.tenantId }]);
  });

  it("stores a page's message in its owner's tenant only: the other tenant's form channel of that page is refused (the issue's request)", async () => {
    const mine = await create('acme', 'messenger', { page_id: '600100', ...META });
    expect(mine.status).toBe(201);
    const theirs = await create('globex', 'messenger', { page_id: '600100', ...META });
    expectTaken(theirs, 'page_id');
    const before = (await inboundJobs()).length;
    expect((await metaAppWebhook('messenger', JSON.stringify({ object: 'page', entry: [entry('600100', 'oi')] }))).status).toBe(200);
    const jobs = (await inboundJobs()).slice(before);
    expect(jobs.map((j) => [j.tenantId, (j.payload as ChannelInboundJob).channel_uuid])).toEqual([[acme.tenantId, mine.body.data.uuid]]);
  });

  it('refuses an update to an identity another channel holds, leaving the channel as it was', async () => {
    const mine = await create('acme', 'messenger', { page_id: '700100', ...META });
    const theirs = await create('globex', 'messenger', { page_id: '700200', ...META });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const moved = await t.http
      .patch(`/api/v1/channels/${theirs.body.data.uuid}`)
      .set(as('globex'))
      .send({ settings: { page_id: '700100' } });
    expectTaken(moved, 'page_id');
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: theirs.body.data.uuid } });
    expect(row).toMatchObject({ providerIdentity: 'messenger:700200', config: expect.objectContaining({ page_id: '700200' }) });
    // Telegram: a new token of a bot another channel has is refused before setWebhook moves the bot.
    const bot = await t.database.db.channel.findFirstOrThrow({ where: { providerIdentity: 'telegram:7000000123' } });
    const hook = sim.webhook();
    const otherBot = await t.database.db.channel.create({
      data: {
        tenantId: globex.tenantId,
        workspaceId: globex.workspaceId,
        name: 'Bot',
        type: 'telegram',
        config: { base_url: sim.baseUrl },
      },
    });
    const stolen = await t.http
      .patch(`/api/v1/channels/${otherBot.id}`)
      .set(as('globex'))
      .send({ credentials: { bot_token: BOT_TOKEN } });
    expectTaken(stolen, 'bot_token');
    expect(sim.webhook()).toEqual(hook);
    expect(hook?.url).toContain(bot.id);
  });

  it("frees a deleted channel's identity for a new channel", async () => {
    const mine = await create('acme', 'sms', { ...TWILIO, from_number: '+15005550100' });
    expect(mine.status).toBe(201);
    expect((await t.http.delete(`/api/v1/channels/${mine.body.data.uuid}`).set(as('acme'))).status).toBe(200);
    const theirs = await create('globex', 'sms', { ...TWILIO, from_number: '+15005550100' });
    expect(theirs.status).toBe(201);
    expect(await liveChannels(`sms:${TWILIO.account_sid.toLowerCase()}:15005550100`)).toEqual([
      { id: theirs.body.data.uuid, tenantId: globex.tenantId },
    ]);
  });

  it('holds under concurrent creation: the index, not a read, lets exactly one of two simultaneous channels have the number', async () => {
    const fields = { phone_number_id: '800100', waba_id: '1', ...META };
    const answers = await Promise.all([
      create('acme', 'whatsapp_cloud', fields),
      create('globex', 'whatsapp_cloud', fields),
      create('globex', 'whatsapp_cloud', fields),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(['channel_identity_taken', 'channel_identity_taken']);
    expect(await liveChannels('whatsapp:800100')).toHaveLength(1);
    // Whatever writes the row (a seed, a script) meets the same index.
    const direct = t.database.db.channel.create({
      data: {
        tenantId: globex.tenantId,
        workspaceId: globex.workspaceId,
        name: 'Direct',
        type: 'whatsapp_cloud',
        config: { phone_number_id: '800100' },
        providerIdentity: 'whatsapp:800100',
      },
    });
    await expect(direct).rejects.toMatchObject({ code: 'P2002' });
    await expect(direct).rejects.toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
  });

  it("gives an e-mail channel the identity of its forwarding address (the channel's own uuid)", async () => {
    const created = await create('acme', 'email', {
      smtp_host: '127.0.0.1',
      smtp_port: '2525',
      from_address: 'support@acme.test',
      password: 'x',
    });
    expect(created.status).toBe(201);
    const uuid = created.body.data.uuid as string;
    expect(created.body.inbound_token).toMatch(new RegExp(`^${uuid.replace(/-/g, '')}\\.`));
    expect((await t.database.db.channel.findUniqueOrThrow({ where: { id: uuid } })).providerIdentity).toBe(
      `email:${uuid.replace(/-/g, '')}`,
    );
  });
});
