import { randomUUID } from 'node:crypto';
import { encryptCredentials, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { TEST_SENDS } from './tools';

// Duplicate a campaign, and send its template to one number before Start.
let t: TestApp;
let sim: WhatsAppSimulator;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
let channel: string;
let template: string;
let campaign: string;
const credentials = { api_key: 'k-360', webhook_secret: 'hook' };
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

beforeAll(async () => {
  sim = await startWhatsAppSimulator({ provider: '360dialog', credentials });
  // The simulator listens on 127.0.0.1, listed as an operator lists a provider's host.
  t = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], campaigns: ['campaign_manager'], campaigns2: ['campaign_manager'] } });
  await t.tenant('Other', { users: { campaigns: ['campaign_manager'] } });
  for (const name of ['agent', 'campaigns', 'campaigns2']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('campaigns@other.test');
  const db = t.database.db;
  channel = (
    await db.channel.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        name: 'WhatsApp',
        type: 'whatsapp_360dialog',
        config: { base_url: sim.baseUrl, api_version: 'cloud' },
        credentialsEncrypted: encryptCredentials(credentials, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY)),
      },
    })
  ).id;
  const components = [
    { type: 'BODY', text: 'Olá {{1}}, seu cupom é {{2}}' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Quero' }] },
  ];
  template = (
    await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components,
      },
    })
  ).id;
  const res = await t.http
    .post('/api/v1/campaign')
    .set(auth('campaigns'))
    .send({
      name: 'Black Friday',
      channel_uuid: channel,
      whatsapp_template_uuid: template,
      dnd_list: [{ uuid: null, name: 'Sair' }],
      inbound_entrypoint: acme.sectors[0]!.id,
      mode: 'broadcast',
      public: false,
      config: {
        default_action: { action: 'end_with_message', message: 'Obrigado!' },
        reply_actions: { Quero: { action: 'transfer_to_sector', sector_uuid: acme.sectors[0]!.id } },
      },
    });
  expect(res.status).toBe(201);
  campaign = res.body.data.uuid;
});
afterAll(async () => {
  await t.close();
  await sim.close();
});
beforeEach(() => sim.reset());

describe('duplicate a campaign', () => {
  it('copies the settings into a new stopped campaign without a schedule, and nothing of the original changes', async () => {
    const db = t.database.db;
    await db.campaign.update({
      where: { id: campaign },
      data: { state: 'completed', desiredState: 'completed', runNumber: 3, startedAt: new Date(), finishedAt: new Date() },
    });
    const res = await t.http.post(`/api/v1/campaign/${campaign}/duplicate`).set(auth('campaigns')).send({});
    expect(res.status).toBe(201);
    const copy = res.body.data;
    expect(copy.uuid).not.toBe(campaign);
    expect(copy).toMatchObject({
      name: 'Copy of Black Friday',
      state: 'stopped',
      desired_state: 'stopped',
      mode: 'broadcast',
      public: false,
      start_at: null,
      started_at: null,
      valid_subscriber_count: 0,
      template: { uuid: template },
      channel: { uuid: channel },
      inbound_entrypoint: { uuid: acme.sectors[0]!.id },
      dnd_list: [{ name: 'Sair' }],
      config: { default_action: { action: 'end_with_message', message: 'Obrigado!' } },
    });
    const row = await db.campaign.findUniqueOrThrow({ where: { id: copy.uuid } });
    expect(row.runNumber).toBe(0);
    expect(row.finishedAt).toBeNull();
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign } })).state).toBe('completed');
    await db.campaign.update({ where: { id: campaign }, data: { state: 'stopped', desiredState: 'stopped' } });
  });

  it('copies the subscribers when asked: pending again, dnd when on a list now, import refusals kept', async () => {
    const db = t.database.db;
    const source = (await t.http.post(`/api/v1/campaign/${campaign}/duplicate`).set(auth('campaigns')).send({ name: 'Fonte' })).body.data
      .uuid as string;
    const rows = [
      { phoneNumber: '+5511900000001', state: 'completed', parameters: ['Ana', 'A1'], sentAt: new Date(), externalId: 'wamid.1' },
      { phoneNumber: '+5511900000002', state: 'error', parameters: ['Bia', 'B2'], errorMessage: 'Recipient is not a valid WhatsApp user' },
      { phoneNumber: '+5511900000003', state: 'error', parameters: ['Caio'], errorMessage: 'Parameter 2 is required' },
      { phoneNumber: '+5511900000004', state: 'pending', parameters: ['Davi', 'D4'] },
    ];
    for (const r of rows)
      await db.campaignSubscriber.create({ data: { tenantId: acme.tenantId, campaignId: source, name: r.parameters[0]!, ...r } });
    // Davi opted out since: he is on the campaign's list now.
    const list = (await db.campaignDndList.findFirstOrThrow({ where: { campaignId: source } })).dndListId;
    const davi = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Davi', phoneNumber: '+5511900000004' } });
    await db.dndContact.create({ data: { tenantId: acme.tenantId, dndListId: list, contactId: davi.id } });

    const res = await t.http.post(`/api/v1/campaign/${source}/duplicate`).set(auth('campaigns')).send({ with_subscribers: true });
    expect(res.status).toBe(201);
    const copied = await db.campaignSubscriber.findMany({ where: { campaignId: res.body.data.uuid }, orderBy: { phoneNumber: 'asc' } });
    expect(copied.map((s) => [s.phoneNumber, s.state, s.parameters, s.errorMessage, s.externalId, s.sentAt])).toEqual([
      ['+5511900000001', 'pending', ['Ana', 'A1'], null, null, null],
      ['+5511900000002', 'pending', ['Bia', 'B2'], null, null, null],
      ['+5511900000003', 'error', ['Caio'], 'Parameter 2 is required', null, null],
      ['+5511900000004', 'dnd', ['Davi', 'D4'], null, null, null],
    ]);
    expect(res.body.data.valid_subscriber_count).toBe(2);
    // The original's rows are untouched.
    expect(
      (await db.campaignSubscriber.findMany({ where: { campaignId: source }, orderBy: { phoneNumber: 'asc' } })).map((s) => s.state),
    ).toEqual(['completed', 'error', 'error', 'pending']);
  });

  it('refuses bad input, other tenants and agents, and creates nothing', async () => {
    const before = await t.database.db.campaign.count();
    const bad = await t.http
      .post(`/api/v1/campaign/${campaign}/duplicate`)
      .set(auth('campaigns'))
      .send({ name: 'x'.repeat(81) });
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toContain('Name must have less than 80 characters');
    expect(
      (await t.http.post(`/api/v1/campaign/${campaign}/duplicate`).set(auth('campaigns')).send({ with_subscribers: 'yes' })).status,
    ).toBe(400);
    expect((await t.http.post(`/api/v1/campaign/${campaign}/duplicate`).set(auth('outsider')).send({})).status).toBe(404);
    expect((await t.http.post(`/api/v1/campaign/${campaign}/duplicate`).set(auth('agent')).send({})).status).toBe(403);
    expect((await t.http.post('/api/v1/campaign/not-a-uuid/duplicate').set(auth('campaigns')).send({})).status).toBe(400);
    expect(await t.database.db.campaign.count()).toBe(before);
  });
});

describe('test send before Start', () => {
  const send = (body: Record<string, unknown>, who = 'campaigns') =>
    t.http.post(`/api/v1/campaign/${campaign}/test_send`).set(auth(who)).send(body);

  it('sends the template with the parameters given to the number, once, without adding a subscriber', async () => {
    const res = await send({ phone_number: '(11) 98888-7777', parameters: ['Maria', 'BF10'] });
    expect(res.status).toBe(200);
    expect(res.body.data.phone_number).toBe('+5511988887777');
    expect(res.body.data.external_id).toBeTruthy();
    const sent = sim.sent();
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]!.body)).toContain('Maria');
    expect(JSON.stringify(sent[0]!.body)).toContain('BF10');
    expect(JSON.stringify(sent[0]!.body)).toContain('5511988887777');
    expect(await t.database.db.campaignSubscriber.count({ where: { campaignId: campaign } })).toBe(0);
    // A second test is a second message (a fresh idempotency key each time).
    expect((await send({ phone_number: '+5511988887777', parameters: ['Maria', 'BF10'] })).status).toBe(200);
    expect(sim.sent()).toHaveLength(2);
  });

  it("shows the provider's refusal with a code, and sends nothing for bad input or a DND number", async () => {
    sim.refuseRecipient('+5511977776666');
    const refused = await send({ phone_number: '+5511977776666', parameters: ['Maria', 'BF10'] });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('campaign_test_send_refused');
    expect(String(refused.body.params.reason)).not.toBe('');
    sim.reset();

    const missing = await send({ phone_number: '+5511988887777', parameters: ['Maria'] });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'subscriber_parameter_missing', params: { n: 2 } });
    const badPhone = await send({ phone_number: '123', parameters: ['Maria', 'BF10'] });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.error_message).toBe('Número de telefone inválido');
    expect((await send({ parameters: ['Maria', 'BF10'] })).status).toBe(400);

    const db = t.database.db;
    const list = (await db.campaignDndList.findFirstOrThrow({ where: { campaignId: campaign } })).dndListId;
    // Stored without the ninth digit: still the same WhatsApp number.
    const optedOut = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Zé', phoneNumber: '+551166665555' } });
    await db.dndContact.create({ data: { tenantId: acme.tenantId, dndListId: list, contactId: optedOut.id } });
    const dnd = await send({ phone_number: '+5511966665555', parameters: ['Zé', 'X'] });
    expect(dnd.status).toBe(409);
    expect(dnd.body.code).toBe('campaign_test_send_dnd');

    expect((await send({ phone_number: '+5511988887777', parameters: ['Maria', 'BF10'] }, 'agent')).status).toBe(403);
    expect((await send({ phone_number: '+5511988887777', parameters: ['Maria', 'BF10'] }, 'outsider')).status).toBe(404);
    await db.outboundTemplate.update({ where: { id: template }, data: { status: 'PAUSED' } });
    expect((await send({ phone_number: '+5511988887777', parameters: ['Maria', 'BF10'] })).status).toBe(422);
    await db.outboundTemplate.update({ where: { id: template }, data: { status: 'APPROVED' } });
    expect(sim.sent()).toHaveLength(0);
  });

  it('allows a campaign a few tests per window, then answers 429 and sends nothing more', async () => {
    await t.redis.del(`${t.env.REDIS_PREFIX}campaign-test-send:${campaign}`);
    sim.reset();
    for (let i = 0; i < TEST_SENDS.limit; i++)
      expect((await send({ phone_number: '+5511988887777', parameters: ['Maria', 'BF10'] })).status).toBe(200);
    const over = await send({ phone_number: '+5511988887777', parameters: ['Maria', 'BF10'] });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'campaign_test_send_rate_limited', params: { retry_after_seconds: expect.any(Number) } });
    expect(sim.sent()).toHaveLength(TEST_SENDS.limit);
  });
});

describe("the report's conversation link", () => {
  it('lets a campaign manager read the conversations replies to their campaigns opened, and no other', async () => {
    const db = t.database.db;
    const contact = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Rita', phoneNumber: '+5511955554444' } });
    const conversation = (n: number) =>
      db.conversation.create({
        data: {
          tenantId: acme.tenantId,
          workspaceId: acme.workspaceId,
          contactId: contact.id,
          channelId: channel,
          sectorId: acme.sectors[0]!.id,
          state: 'closed',
          ticketNumber: 900 + n,
          closedAt: new Date(),
        },
      });
    const replied = await conversation(1);
    const unrelated = await conversation(2);
    await db.message.create({
      data: {
        id: randomUUID(),
        tenantId: acme.tenantId,
        conversationId: replied.id,
        author: 'CONTACT',
        contactId: contact.id,
        content: 'Quero',
        state: 'sent',
      },
    });
    await db.campaignSubscriber.create({
      data: {
        tenantId: acme.tenantId,
        campaignId: campaign,
        name: 'Rita',
        phoneNumber: '+5511955554444',
        state: 'completed',
        sentAt: new Date(),
        repliedAt: new Date(),
        conversationId: replied.id,
        contactId: contact.id,
      },
    });
    const read = (who: string, id: string) => t.http.get(`/api/v1/conversations/${id}`).set(auth(who));
    expect((await read('campaigns', replied.id)).status).toBe(200);
    const messages = await t.http.get(`/api/v1/conversations/${replied.id}/messages`).set(auth('campaigns'));
    expect(messages.status).toBe(200);
    expect(messages.body.data.map((m: { message: string }) => m.message)).toContain('Quero');
    // The history view's side panel reads the conversation fields too (it sent them home with a 403).
    expect((await t.http.get(`/api/v1/conversations/${replied.id}/fields`).set(auth('campaigns'))).status).toBe(200);
    expect((await t.http.get(`/api/v1/conversations/${unrelated.id}/fields`).set(auth('campaigns'))).status).toBe(404);
    // Not a conversation of a campaign; and a private campaign of somebody else.
    expect((await read('campaigns', unrelated.id)).status).toBe(404);
    expect((await read('campaigns2', replied.id)).status).toBe(404);
    await db.campaign.update({ where: { id: campaign }, data: { isPublic: true } });
    expect((await read('campaigns2', replied.id)).status).toBe(200);
    await db.campaign.update({ where: { id: campaign }, data: { isPublic: false } });
  });
});
