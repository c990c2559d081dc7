import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import { queues, type CampaignConfig, type ReplyAction } from '@atende/contract';
import { botHttp, runBotSteps, type ConversationDeps } from '@atende/conversations';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInbound, type ChannelInboundDeps } from '../channel-inbound/processor';

// A campaign reply is handled by exactly one step (docs/conversation-entry.md):
// a button with its own reply action runs that action; free text or a button without one enters
// the campaign's entry point, or, with none that works, runs the default action; end_dnd always
// records the opt-out. Every reply arrives as the WhatsApp webhook the worker processes.
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 5).toString('base64'));
let t: TestDatabase;
let redis: Redis;
let storageDir: string;
let deps: ChannelInboundDeps;
let conversationDeps: ConversationDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let channelId: string;
let templateId: string;
let ids: { support: string; sales: string; channelSector: string; menu: string; bot: string; dnd: string };

const MENU_TEXT = 'Escolha uma opção\n\n1 - Vendas';
const BOT_PROMPT = 'Which plan?\n\n1 - Gold';

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-reply-entry-'));
  const realtime = new RealtimeOutbox(redis, prefix);
  const log = pino({ level: 'silent' });
  deps = {
    db: t.db,
    realtime,
    adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }) }),
    secretsKey,
    storage: new LocalDiskDriver(storageDir),
    log,
  };
  conversationDeps = { db: t.db, realtime, log };
  // Bots on (flag bots_interface): a bot entry point and chatbot_outbound answer only then.
  tenant = await ensureTenant(t.db, {
    name: 'Entry',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'entry.test',
    password: 'x1234567',
    sectors: ['Suporte', 'Vendas', 'Canal'],
    features: { bots_interface: true },
  });
  const [support, sales, channelSector] = tenant.sectors.map((s) => s.id) as [string, string, string];
  channelId = (
    await t.db.channel.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'WhatsApp',
        type: 'whatsapp_360dialog',
        entrySectorId: channelSector,
        config: { base_url: 'http://127.0.0.1:9', api_version: 'cloud' },
        credentialsEncrypted: encryptCredentials({ api_key: 'k', webhook_secret: 'w' }, secretsKey),
      },
    })
  ).id;
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
          { type: 'BODY', text: 'Olá {{1}}' },
          { type: 'BUTTONS', buttons: ['Quero', 'Talvez'].map((text) => ({ type: 'QUICK_REPLY', text })) },
        ],
      },
    })
  ).id;
  const menu = await t.db.automatedMenu.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'Menu',
      message: 'Escolha uma opção',
      invalidOptionMessage: 'Opção inválida',
      answers: [{ key: '1', label: 'Vendas', action: { type: 'transfer_to_sector', sector_uuid: sales } }],
    },
  });
  const bot = await t.db.bot.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'Planos',
      nodes: [
        { id: 's', type: 'start', next: 'ask' },
        {
          id: 'ask',
          type: 'options',
          text: 'Which plan?',
          invalid_option_message: 'Pick 1',
          options: [{ key: '1', label: 'Gold', next: 'bye' }],
        },
        { id: 'bye', type: 'end', text: 'Done!' },
      ],
    },
  });
  const dnd = await t.db.dndList.create({ data: { tenantId: tenant.tenantId, name: 'Opt-out' } });
  ids = { support, sales, channelSector, menu: menu.id, bot: bot.id, dnd: dnd.id };
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});

type EntryKind = 'sector' | 'menu' | 'bot' | 'none';
type ActionKind = ReplyAction['action'];
const ENTRY_KINDS: EntryKind[] = ['sector', 'menu', 'bot', 'none'];
const ACTION_KINDS: ActionKind[] = ['end_dnd', 'transfer_to_sector', 'chatbot_outbound', 'end_with_message'];
const entryOf = (kind: EntryKind) =>
  ({ sector: { entrySectorId: ids.sales }, menu: { entryMenuId: ids.menu }, bot: { entryBotId: ids.bot }, none: {} })[kind];
const actionOf = (kind: ActionKind): ReplyAction =>
  ({
    end_dnd: { action: 'end_dnd', dnd_list: [ids.dnd], message: 'Removido' },
    transfer_to_sector: { action: 'transfer_to_sector', sector_uuid: ids.support, message: 'Suporte' },
    // The same bot as the bot entry point: its prompt must still come once.
    chatbot_outbound: { action: 'chatbot_outbound', bot_uuid: ids.bot, message: 'Um momento' },
    end_with_message: { action: 'end_with_message', message: 'Obrigado' },
  })[kind] as ReplyAction;

let phoneSeq = 0;
const nextPhone = () => `+55119${String(61000000 + ++phoneSeq).padStart(8, '0')}`;
async function campaignSentTo(phone: string, entry: EntryKind, config: CampaignConfig, sentAt = new Date(Date.now() - 60_000)) {
  const campaign = await t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: `C${phoneSeq}`,
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      config,
      ...entryOf(entry),
    },
  });
  await t.db.campaignSubscriber.create({
    data: {
      tenantId: tenant.tenantId,
      campaignId: campaign.id,
      name: 'Ana',
      phoneNumber: phone,
      parameters: ['Ana'],
      state: 'sent',
      externalId: `wamid.out-${phoneSeq}`,
      sentAt,
    },
  });
  return campaign;
}

let messageSeq = 0;
/** The Cloud API webhook of one contact message (a quick-reply button or text), processed as the worker does. */
async function webhook(phone: string, message: { button?: string; text?: string; context?: string }) {
  const waId = phone.slice(1);
  const body = message.button
    ? { type: 'button', button: { text: message.button, payload: message.button } }
    : { type: 'text', text: { body: message.text ?? '' } };
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '5511900000000', phone_number_id: 'p' },
    contacts: [{ profile: { name: 'Ana' }, wa_id: waId }],
    messages: [
      {
        from: waId,
        id: `wamid.in-${++messageSeq}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        ...body,
        ...(message.context ? { context: { id: message.context } } : {}),
      },
    ],
  };
  const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'waba', changes: [{ field: 'messages', value }] }] });
  const job = {
    tenant_uuid: tenant.tenantId,
    channel_uuid: channelId,
    content_type: 'application/json',
    raw_body: raw,
    received_at: new Date().toISOString(),
  };
  expect(await processInbound(deps, job)).toMatchObject({ messages: 1 });
}

/**
 * Where the contact's reply left things, after the worker ran every bot step queued for it: the
 * contact's conversations on the channel, and the texts sent to them (each queued for delivery).
 */
async function outcome(phone: string) {
  const contact = await t.db.contact.findFirstOrThrow({ where: { tenantId: tenant.tenantId, phoneNumber: phone } });
  const conversations = await t.db.conversation.findMany({ where: { contactId: contact.id, channelId }, orderBy: { createdAt: 'asc' } });
  const botSteps = await t.db.outboxJob.findMany({
    where: { queue: queues.botStep.name, payload: { path: ['conversation_uuid'], equals: conversations.at(-1)?.id ?? '' } },
  });
  for (const _ of botSteps) await runBotSteps(conversationDeps, botHttp({ allowHosts: '' }), conversations.at(-1)!.id);
  const sent = await t.db.message.findMany({
    where: { conversationId: { in: conversations.map((c) => c.id) }, author: 'USER', NOT: { tags: { has: 'campaign' } } },
    orderBy: { createdAt: 'asc' },
  });
  const delivery = await t.db.outboxJob.findMany({ where: { queue: queues.channelDelivery.name, tenantId: tenant.tenantId } });
  const queued = new Set(delivery.map((j) => (j.payload as { message_uuid?: string }).message_uuid));
  const conversation = await t.db.conversation.findUniqueOrThrow({ where: { id: conversations.at(-1)!.id } });
  return {
    conversations: conversations.length,
    conversation,
    received: sent.filter((m) => queued.has(m.id)).map((m) => m.content),
    botSteps: botSteps.length,
    dnd: await t.db.dndContact.count({ where: { contactId: contact.id, dndListId: ids.dnd } }),
    subscriber: await t.db.campaignSubscriber.findFirstOrThrow({ where: { phoneNumber: phone } }),
  };
}

/** What a reply action does to the conversation it opens, and what the contact receives. */
function actionResult(kind: ActionKind, entry: EntryKind) {
  // An ending action closes the conversation in the campaign's entry sector if it has one, else the channel's.
  const home = entry === 'sector' ? ids.sales : ids.channelSector;
  return {
    end_dnd: { fields: { state: 'closed', sectorId: home, endedBy: 'system' }, received: ['Removido'], dnd: 1 },
    transfer_to_sector: {
      fields: { state: 'waiting', sectorId: ids.support, botId: null, botMenuId: null },
      received: ['Suporte'],
      dnd: 0,
    },
    chatbot_outbound: {
      fields: { state: 'bot', botId: ids.bot, sectorId: null, botMenuId: null },
      received: ['Um momento', BOT_PROMPT],
      dnd: 0,
    },
    end_with_message: { fields: { state: 'closed', sectorId: home, endedBy: 'system' }, received: ['Obrigado'], dnd: 0 },
  }[kind];
}
/** What the campaign's entry point does to the conversation a reply opens, and what the contact receives. */
function entryResult(entry: Exclude<EntryKind, 'none'>) {
  return {
    sector: { fields: { state: 'waiting', sectorId: ids.sales, botId: null, botMenuId: null }, received: [] as string[], dnd: 0 },
    menu: { fields: { state: 'bot', botMenuId: ids.menu, sectorId: null, botId: null }, received: [MENU_TEXT], dnd: 0 },
    bot: { fields: { state: 'bot', botId: ids.bot, sectorId: null, botMenuId: null }, received: [BOT_PROMPT], dnd: 0 },
  }[entry];
}
async function expectOutcome(
  phone: string,
  expected: { fields: Record<string, unknown>; received: string[]; dnd: number },
  replyAction: string,
) {
  const got = await outcome(phone);
  expect(got.conversations).toBe(1);
  expect(got.conversation).toMatchObject(expected.fields);
  expect(got.received).toEqual(expected.received);
  expect(got.dnd).toBe(expected.dnd);
  // At most one bot step: a bot never greets the contact twice.
  expect(got.botSteps).toBe(expected.fields.botId ? 1 : 0);
  expect(got.subscriber).toMatchObject({ state: 'completed', replyAction, conversationId: got.conversation.id });
}

// The default action each entry point case carries: it must not run when an entry point takes the reply.
const UNUSED_DEFAULT: ReplyAction = { action: 'end_with_message', message: 'Padrão' };

describe('a button with its own reply action runs that action alone, whatever the entry point', () => {
  for (const entry of ENTRY_KINDS) {
    for (const kind of ACTION_KINDS) {
      it(`entry ${entry} × button action ${kind}`, async () => {
        const phone = nextPhone();
        await campaignSentTo(phone, entry, { default_action: UNUSED_DEFAULT, reply_actions: { Quero: actionOf(kind) } });
        await webhook(phone, { button: 'Quero' });
        await expectOutcome(phone, actionResult(kind, entry), 'Quero');
      });
    }
  }
});

describe('free text or a button without an action enters the campaign’s entry point; the default action does not run', () => {
  for (const entry of ['sector', 'menu', 'bot'] as const) {
    it(`entry ${entry} × free text`, async () => {
      const phone = nextPhone();
      await campaignSentTo(phone, entry, { default_action: UNUSED_DEFAULT, reply_actions: { Quero: actionOf('transfer_to_sector') } });
      await webhook(phone, { text: 'Oi, quem é?' });
      await expectOutcome(phone, entryResult(entry), 'reply');
    });
    it(`entry ${entry} × button without an action`, async () => {
      const phone = nextPhone();
      await campaignSentTo(phone, entry, { default_action: UNUSED_DEFAULT, reply_actions: { Quero: actionOf('transfer_to_sector') } });
      await webhook(phone, { button: 'Talvez' });
      await expectOutcome(phone, entryResult(entry), 'Talvez');
    });
  }
});

describe('with no entry point, free text or a button without an action runs the default action', () => {
  for (const kind of ACTION_KINDS) {
    it(`no entry point × free text × default ${kind}`, async () => {
      const phone = nextPhone();
      await campaignSentTo(phone, 'none', { default_action: actionOf(kind), reply_actions: {} });
      await webhook(phone, { text: 'Oi' });
      await expectOutcome(phone, actionResult(kind, 'none'), 'reply');
    });
    it(`no entry point × button without an action × default ${kind}`, async () => {
      const phone = nextPhone();
      await campaignSentTo(phone, 'none', { default_action: actionOf(kind), reply_actions: {} });
      await webhook(phone, { button: 'Talvez' });
      await expectOutcome(phone, actionResult(kind, 'none'), 'Talvez (DEFAULT_ACTION)');
    });
  }

  it('an entry point that no longer works (its menu switched off) counts as none: the default action runs', async () => {
    const phone = nextPhone();
    const off = await t.db.automatedMenu.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name: 'Desligado',
        message: 'x',
        invalidOptionMessage: 'y',
        enabled: false,
      },
    });
    const campaign = await campaignSentTo(phone, 'none', { default_action: actionOf('transfer_to_sector'), reply_actions: {} });
    await t.db.campaign.update({ where: { id: campaign.id }, data: { entryMenuId: off.id } });
    await webhook(phone, { text: 'Oi' });
    await expectOutcome(phone, actionResult('transfer_to_sector', 'none'), 'reply');
  });
});

describe('the cases of the issue', () => {
  it('a free-text reply gets the campaign’s menu only, and the contact’s menu answer goes on in the same conversation', async () => {
    const phone = nextPhone();
    await campaignSentTo(phone, 'menu', { default_action: { action: 'end_with_message', message: 'Obrigado' }, reply_actions: {} });
    await webhook(phone, { text: 'Oi' });
    await webhook(phone, { text: '1' });
    const got = await outcome(phone);
    expect(got.conversations).toBe(1);
    expect(got.conversation).toMatchObject({ state: 'waiting', sectorId: ids.sales, botMenuId: null });
    expect(got.received).toEqual([MENU_TEXT]);
  });

  it('a "transfer to Suporte" button with the campaign’s menu as entry point sends "Suporte" only and waits in Suporte', async () => {
    const phone = nextPhone();
    await campaignSentTo(phone, 'menu', { default_action: UNUSED_DEFAULT, reply_actions: { Quero: actionOf('transfer_to_sector') } });
    await webhook(phone, { button: 'Quero' });
    const got = await outcome(phone);
    expect(got.conversation).toMatchObject({ state: 'waiting', sectorId: ids.support, botMenuId: null });
    expect(got.received).toEqual(['Suporte']);
  });
});

describe('a reply joining an open conversation: its holder alone reads it', () => {
  for (const kind of ACTION_KINDS) {
    it(`button action ${kind} is recorded, not run; end_dnd still records the opt-out`, async () => {
      const phone = nextPhone();
      await webhook(phone, { text: 'Preciso de ajuda' });
      // Sent while the contact's request waits in the queue.
      await campaignSentTo(phone, 'menu', { default_action: UNUSED_DEFAULT, reply_actions: { Quero: actionOf(kind) } }, new Date());
      await webhook(phone, { button: 'Quero' });
      const got = await outcome(phone);
      expect(got.conversations).toBe(1);
      expect(got.conversation).toMatchObject({ state: 'waiting', sectorId: ids.channelSector, botId: null, botMenuId: null });
      expect(got.received).toEqual([]);
      expect(got.dnd).toBe(kind === 'end_dnd' ? 1 : 0);
      expect(got.subscriber).toMatchObject({ state: 'completed', replyAction: 'Quero', conversationId: got.conversation.id });
      const event = await t.db.conversationEvent.findFirstOrThrow({
        where: { conversationId: got.conversation.id, type: 'campaign-reply' },
      });
      expect(event.detail).toMatchObject({ reply_action: kind, executed: false });
    });
  }

  it('a campaign button pressed while the channel’s menu holds the conversation is the menu’s answer only', async () => {
    const phone = nextPhone();
    await t.db.channel.update({ where: { id: channelId }, data: { entryMenuId: ids.menu } });
    try {
      await webhook(phone, { text: 'Oi' });
    } finally {
      await t.db.channel.update({ where: { id: channelId }, data: { entryMenuId: null } });
    }
    await campaignSentTo(
      phone,
      'none',
      { default_action: UNUSED_DEFAULT, reply_actions: { Quero: actionOf('transfer_to_sector') } },
      new Date(),
    );
    await webhook(phone, { button: 'Quero' });
    const got = await outcome(phone);
    expect(got.conversation).toMatchObject({ state: 'bot', botMenuId: ids.menu, sectorId: null });
    // The menu's greeting, then its invalid-option message and the menu again: no "Suporte".
    expect(got.received).toEqual([MENU_TEXT, 'Opção inválida', MENU_TEXT]);
  });
});
