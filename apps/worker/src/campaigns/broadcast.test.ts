import { randomBytes } from 'node:crypto';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { InboundReceiver } from '@atende/conversations';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RateLimiter, RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchCampaign, type DispatchDeps } from './dispatch';

// 'Fechar conversação após envio' (mode broadcast): each accepted send
// is a conversation closed at once in the contact's history; the reply opens a new conversation
// through the campaign's entry point, whose reply action runs on it. Conversation mode records nothing at send.
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
const credentials = { api_key: 'k-360', webhook_secret: 'hook' };
let t: TestDatabase;
let redis: Redis;
let sim: WhatsAppSimulator;
let deps: DispatchDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let channelId: string;
let templateId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startWhatsAppSimulator({ provider: '360dialog', credentials });
  const realtime = new RealtimeOutbox(redis, prefix);
  const adapters = channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1,localhost' }) });
  deps = {
    db: t.db,
    realtime,
    adapters,
    secretsKey,
    limiter: new RateLimiter(redis, prefix),
    owner: 'worker-b',
    ratePerSecond: 0,
    log: pino({ level: 'silent' }),
    batchSize: 3,
  };
  tenant = await ensureTenant(t.db, {
    name: 'Broadcast',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'broadcast.test',
    password: 'x1234567',
    sectors: ['Suporte', 'Vendas'],
  });
  const channel = await t.db.channel.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'WhatsApp',
      type: 'whatsapp_360dialog',
      entrySectorId: tenant.sectors[0]!.id,
      config: { base_url: sim.baseUrl, api_version: 'cloud' },
      credentialsEncrypted: encryptCredentials(credentials, secretsKey),
    },
  });
  channelId = channel.id;
  templateId = (
    await t.db.outboundTemplate.create({
      data: {
        tenantId: tenant.tenantId,
        channelId,
        name: 'aviso',
        language: 'pt_BR',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Olá {{1}}, seu boleto vence amanhã.' }],
      },
    })
  ).id;
});
afterAll(async () => {
  await sim?.close();
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
});

const phones = (n: number, base: number) => Array.from({ length: n }, (_, i) => `+55119${String(base + i).padStart(8, '0')}`);
async function runCampaign(name: string, mode: 'broadcast' | 'conversation', to: string[]) {
  const campaign = await t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name,
      mode,
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      entrySectorId: tenant.sectors[1]!.id,
      config: { default_action: { action: 'transfer_to_sector', sector_uuid: tenant.sectors[1]!.id }, reply_actions: {} },
      desiredState: 'running',
      runNumber: 1,
    },
  });
  await t.db.campaignSubscriber.createMany({
    data: to.map((p, i) => ({
      tenantId: tenant.tenantId,
      campaignId: campaign.id,
      name: `Cliente ${i}`,
      phoneNumber: p,
      parameters: [`Cliente ${i}`],
    })),
  });
  expect(await dispatchCampaign(deps, { tenant_uuid: tenant.tenantId, campaign_uuid: campaign.id, run: 1 })).toBe('done');
  return campaign;
}

describe("broadcast mode: 'close the conversation after sending'", () => {
  it('records every accepted send as a closed conversation holding the template, once per subscriber', async () => {
    const to = phones(7, 55510000);
    const known = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Já conhecido', phoneNumber: to[0]! } });
    const campaign = await runCampaign('Aviso', 'broadcast', to);
    const subscribers = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id } });
    expect(subscribers.every((s) => s.state === 'sent' && s.conversationId && s.contactId)).toBe(true);
    const conversations = await t.db.conversation.findMany({
      where: { id: { in: subscribers.map((s) => s.conversationId!) } },
      include: { messages: true },
    });
    expect(conversations).toHaveLength(7);
    for (const c of conversations) {
      expect(c).toMatchObject({ state: 'closed', type: 'outbound_campaign', endedBy: 'system', channelId });
      expect(c.closedAt).not.toBeNull();
      expect(c.messages).toHaveLength(1);
      expect(c.messages[0]).toMatchObject({ author: 'USER', tags: ['campaign'], state: 'sent' });
      expect(c.messages[0]!.content).toMatch(/^Olá Cliente \d, seu boleto vence amanhã\.$/);
    }
    // The known contact is reused, not duplicated; ticket numbers stay unique.
    expect(subscribers.find((s) => s.phoneNumber === to[0])!.contactId).toBe(known.id);
    expect(await t.db.contact.count({ where: { tenantId: tenant.tenantId, phoneNumber: to[0] } })).toBe(1);
    expect(new Set(conversations.map((c) => c.ticketNumber)).size).toBe(7);
    // A repeated dispatch of the same run records nothing more.
    await t.db.campaign.update({ where: { id: campaign.id }, data: { desiredState: 'running' } });
    await dispatchCampaign(deps, { tenant_uuid: tenant.tenantId, campaign_uuid: campaign.id, run: 1 });
    expect(
      await t.db.conversation.count({ where: { type: 'outbound_campaign', contactId: { in: subscribers.map((s) => s.contactId!) } } }),
    ).toBe(7);
  });

  it('a reply opens a new conversation through the entry point and runs the action, the closed one stays closed', async () => {
    const [phone] = phones(1, 55520000);
    const campaign = await runCampaign('Aviso 2', 'broadcast', [phone!]);
    const sent = await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: campaign.id } });
    const conversationDeps = { db: t.db, realtime: deps.realtime, log: deps.log };
    const got = await new InboundReceiver(conversationDeps).receive(
      { id: channelId, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, entrySectorId: tenant.sectors[0]!.id, tenantConfig: {} },
      { contact: { phone: phone! }, message: { id: 'reply-1', content: 'Já paguei' } },
    );
    expect(got.conversation_uuid).not.toBe(sent.conversationId);
    // The campaign has no entry point: the reply runs its default action as it opens the conversation.
    expect(await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: campaign.id } })).toMatchObject({
      state: 'completed',
      conversationId: got.conversation_uuid,
    });
    const reply = await t.db.conversation.findUniqueOrThrow({ where: { id: got.conversation_uuid }, include: { messages: true } });
    // Opened in the campaign's entry sector and left open for an agent (not closed for being a broadcast), with the template it answers.
    expect(reply).toMatchObject({ state: 'waiting', sectorId: tenant.sectors[1]!.id, contactId: sent.contactId });
    expect(reply.messages.map((m) => m.content).sort()).toEqual(['Já paguei', 'Olá Cliente 0, seu boleto vence amanhã.']);
    expect((await t.db.conversation.findUniqueOrThrow({ where: { id: sent.conversationId! } })).state).toBe('closed');
  });

  it('conversation mode records no conversation at send: the reply carries the template', async () => {
    const [phone] = phones(1, 55530000);
    const campaign = await runCampaign('Conversa', 'conversation', [phone!]);
    const sent = await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: campaign.id } });
    expect(sent).toMatchObject({ state: 'sent', conversationId: null });
  });
});
