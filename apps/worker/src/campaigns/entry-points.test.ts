import type { CampaignConfig } from '@atende/contract';
import { randomBytes } from 'node:crypto';
import { InboundReceiver, type ConversationDeps } from '@atende/conversations';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimBatch } from './dispatch';

// A reply to a campaign opens its conversation through the campaign's entry point
// (a sector, a menu or a bot; inbound_entrypoint), and an opt-out through end_dnd
// protects the contact in every later campaign consulting that list. Free text
// enters the entry point alone, without the default action (reply-entry.test.ts has the whole matrix).
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
let t: TestDatabase;
let redis: Redis;
let deps: ConversationDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let channelId: string;
let templateId: string;
let channel: { id: string; tenantId: string; workspaceId: string; entrySectorId: string | null; tenantConfig: unknown };
let phoneSeq = 0;
const nextPhone = () => `+55119${String(76540000 + ++phoneSeq).padStart(8, '0')}`;
let channelSector: string;
let campaignSector: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  deps = { db: t.db, realtime: new RealtimeOutbox(redis, prefix), log: pino({ level: 'silent' }) };
  // Bots on (flag bots_interface): a bot entry point answers only where the tenant has bots.
  tenant = await ensureTenant(t.db, {
    name: 'Entries',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'entries.test',
    password: 'x1234567',
    sectors: ['Suporte', 'Vendas'],
    features: { bots_interface: true },
  });
  [channelSector, campaignSector] = [tenant.sectors[0]!.id, tenant.sectors[1]!.id];
  channelId = (
    await t.db.channel.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'WhatsApp',
        type: 'whatsapp_360dialog',
        entrySectorId: channelSector,
      },
    })
  ).id;
  channel = { id: channelId, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, entrySectorId: channelSector, tenantConfig: {} };
  templateId = (
    await t.db.outboundTemplate.create({
      data: {
        tenantId: tenant.tenantId,
        channelId,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [
          { type: 'BODY', text: 'Olá' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Sair' }] },
        ],
      },
    })
  ).id;
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
});

type Entry = { entrySectorId?: string | null; entryMenuId?: string | null; entryBotId?: string | null };
async function campaign(
  name: string,
  entry: Entry,
  config: CampaignConfig = { default_action: { action: 'transfer_to_sector', sector_uuid: campaignSector }, reply_actions: {} },
) {
  return t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name,
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      config,
      ...entry,
    },
  });
}
const sentTo = (campaignId: string, phone: string) =>
  t.db.campaignSubscriber.create({
    data: { tenantId: tenant.tenantId, campaignId, name: 'Ana', phoneNumber: phone, state: 'sent', sentAt: new Date(Date.now() - 60_000) },
  });
let messageSeq = 0;
async function reply(phone: string, button: string | null = null) {
  const text = button ?? 'Oi';
  const got = await new InboundReceiver(deps).receive(channel, {
    contact: { phone },
    message: {
      id: `e-${++messageSeq}`,
      content: text,
      ...(button ? { interactive: { type: 'button' as const, text: button, payload: null, context_id: null } } : {}),
    },
  });
  return t.db.conversation.findUniqueOrThrow({ where: { id: got.conversation_uuid } });
}

describe("a reply opens through the campaign's entry point", () => {
  it("enters the campaign's sector, not the channel's, and the default action does not close it", async () => {
    const phone = nextPhone();
    const c = await campaign(
      'Setor',
      { entrySectorId: campaignSector },
      { default_action: { action: 'end_with_message' }, reply_actions: {} },
    );
    await sentTo(c.id, phone);
    const conversation = await reply(phone);
    expect(conversation).toMatchObject({ sectorId: campaignSector, state: 'waiting' });
    const entered = await t.db.conversationEvent.findFirst({ where: { conversationId: conversation.id, type: 'enter-queue' } });
    expect(entered).not.toBeNull();
  });

  it("runs the campaign's menu: the contact gets the menu and the conversation waits in state bot", async () => {
    const phone = nextPhone();
    const menu = await t.db.automatedMenu.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'Menu campanha',
        message: 'Escolha uma opção',
        invalidOptionMessage: 'Inválida',
        answers: [{ key: '1', label: 'Vendas', action: { type: 'go_to_sector', sector_uuid: campaignSector } }],
      },
    });
    const c = await campaign('Menu', { entryMenuId: menu.id });
    await sentTo(c.id, phone);
    const conversation = await reply(phone);
    expect(conversation).toMatchObject({ state: 'bot', botMenuId: menu.id, sectorId: null });
    const messages = await t.db.message.findMany({ where: { conversationId: conversation.id, tags: { has: 'menu' } } });
    expect(messages.some((m) => m.content.includes('Escolha uma opção'))).toBe(true);
  });

  it("hands the conversation to the campaign's bot", async () => {
    const phone = nextPhone();
    const bot = await t.db.bot.create({
      data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'Bot campanha', nodes: [] },
    });
    const c = await campaign('Bot', { entryBotId: bot.id });
    await sentTo(c.id, phone);
    const conversation = await reply(phone);
    expect(conversation).toMatchObject({ state: 'bot', botId: bot.id });
  });

  it("runs the default action when the campaign's menu was switched off since (as with no entry point)", async () => {
    const phone = nextPhone();
    const menu = await t.db.automatedMenu.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'Desligado',
        message: 'x',
        invalidOptionMessage: 'y',
        enabled: false,
      },
    });
    const c = await campaign('Menu off', { entryMenuId: menu.id }, { default_action: { action: 'end_with_message' }, reply_actions: {} });
    await sentTo(c.id, phone);
    const conversation = await reply(phone);
    // Closed by end_with_message, in the channel's entry sector (the campaign has none that works).
    expect(conversation).toMatchObject({ sectorId: channelSector, botMenuId: null, state: 'closed' });
  });

  it('follows the campaign the reply quotes, as the reply action does: a text quoting the older campaign enters its sector', async () => {
    const phone = nextPhone();
    const older = await campaign(
      'Antiga',
      { entrySectorId: campaignSector },
      { default_action: { action: 'end_with_message' }, reply_actions: {} },
    );
    const newer = await campaign(
      'Nova',
      { entrySectorId: channelSector },
      { default_action: { action: 'end_with_message' }, reply_actions: {} },
    );
    await t.db.campaignSubscriber.create({
      data: {
        tenantId: tenant.tenantId,
        campaignId: older.id,
        name: 'Ana',
        phoneNumber: phone,
        state: 'sent',
        externalId: 'wamid.old',
        sentAt: new Date(Date.now() - 600_000),
      },
    });
    await sentTo(newer.id, phone);
    const got = await new InboundReceiver(deps).receive(channel, {
      contact: { phone },
      message: { id: `e-${++messageSeq}`, content: 'Sobre a antiga', context_id: 'wamid.old' },
    });
    const [answeredOld, answeredNew] = await Promise.all(
      [older, newer].map((c) => t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: c.id } })),
    );
    expect([answeredOld!.state, answeredNew!.state]).toEqual(['completed', 'sent']);
    expect((await t.db.conversation.findUniqueOrThrow({ where: { id: got.conversation_uuid } })).sectorId).toBe(campaignSector);
  });

  it("keeps the channel's entry point for a contact who answers no campaign", async () => {
    const conversation = await reply(nextPhone());
    expect(conversation).toMatchObject({ sectorId: channelSector, state: 'waiting' });
  });
});

describe('an opt-out protects later campaigns', () => {
  it('a contact put on a list by end_dnd is not sent a later campaign that consults the list', async () => {
    const phone = nextPhone();
    const optOut = await t.db.dndList.create({ data: { tenantId: tenant.tenantId, name: 'Opt-out', isDefault: true } });
    const first = await campaign(
      'Primeira',
      {},
      {
        default_action: { action: 'end_with_message' },
        reply_actions: { Sair: { action: 'end_dnd', dnd_list: [optOut.id], message: 'Removido' } },
      },
    );
    await sentTo(first.id, phone);
    await reply(phone, 'Sair');
    const later = await campaign('Segunda', {});
    await t.db.campaignDndList.create({ data: { campaignId: later.id, dndListId: optOut.id } });
    const other = nextPhone();
    await t.db.campaignSubscriber.createMany({
      data: [phone, other].map((p) => ({ tenantId: tenant.tenantId, campaignId: later.id, name: 'X', phoneNumber: p, state: 'pending' })),
    });
    const claimed = await claimBatch(t.db, later.id, 10);
    expect(Object.fromEntries(claimed.map((c) => [c.phoneNumber, c.state]))).toEqual({ [phone]: 'dnd', [other]: 'scheduled' });
  });

  it('matches the opted-out contact whether WhatsApp gave the number with or without the ninth digit', async () => {
    const withNine = nextPhone();
    // +55 11 9XXXXXXXX as imported; WhatsApp replied from +55 11 XXXXXXXX.
    const withoutNine = `+5511${withNine.slice(6)}`;
    const optOut = await t.db.dndList.create({ data: { tenantId: tenant.tenantId, name: 'Opt-out 9' } });
    const first = await campaign(
      'Primeira 9',
      {},
      { default_action: { action: 'end_dnd', dnd_list: [optOut.id], message: 'Removido' }, reply_actions: {} },
    );
    await sentTo(first.id, withNine);
    await reply(withoutNine);
    const optedOut = await t.db.dndContact.findFirstOrThrow({ where: { dndListId: optOut.id }, include: { contact: true } });
    expect(optedOut.contact.phoneNumber).toBe(withoutNine);
    const later = await campaign('Segunda 9', {});
    await t.db.campaignDndList.create({ data: { campaignId: later.id, dndListId: optOut.id } });
    await t.db.campaignSubscriber.create({
      data: { tenantId: tenant.tenantId, campaignId: later.id, name: 'X', phoneNumber: withNine, state: 'pending' },
    });
    expect((await claimBatch(t.db, later.id, 10)).map((c) => c.state)).toEqual(['dnd']);
  });
});
