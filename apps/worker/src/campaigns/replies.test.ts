import { randomBytes } from 'node:crypto';
import { InboundReceiver, type ConversationDeps } from '@atende/conversations';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A reply belongs to the campaign whose message it answers, and a campaign's
// reply action never closes or moves a conversation that was already open for other reasons.
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
let t: TestDatabase;
let redis: Redis;
let deps: ConversationDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let channelId: string;
let templateId: string;
let channel: { id: string; tenantId: string; workspaceId: string; entrySectorId: string | null; tenantConfig: unknown };
let phoneSeq = 0;
const nextPhone = () => `+55119${String(87650000 + ++phoneSeq).padStart(8, '0')}`;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  deps = { db: t.db, realtime: new RealtimeOutbox(redis, prefix), log: pino({ level: 'silent' }) };
  tenant = await ensureTenant(t.db, {
    name: 'Replies',
    users: { manager: ['campaign_manager'], agent: ['agent'] },
    emailDomain: 'replies.test',
    password: 'x1234567',
    sectors: ['Vendas'],
  });
  const created = await t.db.channel.create({
    data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog', config: {} },
  });
  channelId = created.id;
  channel = { id: channelId, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, entrySectorId: null, tenantConfig: {} };
  const template = await t.db.outboundTemplate.create({
    data: {
      tenantId: tenant.tenantId,
      channelId,
      name: 'oferta',
      language: 'pt_BR',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [
        { type: 'BODY', text: 'Olá {{1}}, sua oferta: {{2}}' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Quero' },
            { type: 'QUICK_REPLY', text: 'Sair' },
          ],
        },
      ],
    },
  });
  templateId = template.id;
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
});

type Actions = Record<string, { action: string; message?: string; dnd_list?: string[]; sector_uuid?: string }>;
async function campaignSentTo(
  name: string,
  phone: string,
  options: { actions?: Actions; externalId?: string; minutesAgo?: number; state?: 'sent' | 'unknown' },
) {
  const campaign = await t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name,
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      config: { default_action: { action: 'end_with_message', message: `Obrigado (${name})` }, reply_actions: options.actions ?? {} },
    },
  });
  await t.db.campaignSubscriber.create({
    data: {
      tenantId: tenant.tenantId,
      campaignId: campaign.id,
      name: 'Ana',
      phoneNumber: phone,
      parameters: ['Ana', name],
      state: options.state ?? 'sent',
      externalId: options.externalId ?? null,
      sentAt: new Date(Date.now() - (options.minutesAgo ?? 1) * 60_000),
    },
  });
  return campaign;
}
const dndList = (name: string) => t.db.dndList.create({ data: { tenantId: tenant.tenantId, name } });
let messageSeq = 0;
/** A contact's message as the provider webhook gives it: a pressed quick reply or text, maybe quoting a message. */
async function reply(phone: string, input: { button?: string; text?: string; context?: string }) {
  const text = input.button ?? input.text ?? '';
  const context = input.context ?? null;
  const interactive = input.button
    ? { interactive: { type: 'button' as const, text: input.button, payload: null, context_id: context } }
    : {};
  const got = await new InboundReceiver(deps).receive(channel, {
    contact: { phone },
    message: { id: `m-${++messageSeq}`, content: text, context_id: context, ...interactive },
  });
  // The campaign the message answered, as its history event says (none: it answered no campaign).
  const event = await t.db.conversationEvent.findFirst({
    where: { conversationId: got.conversation_uuid, type: 'campaign-reply' },
    orderBy: { at: 'desc' },
  });
  return { conversationId: got.conversation_uuid, answered: event?.detail ?? null };
}
const stateOf = async (campaignId: string) => (await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId } })).state;

describe('which campaign a reply answers', () => {
  it('follows the quoted message: a button of the older campaign runs the older campaign’s action', async () => {
    const phone = nextPhone();
    const optOut = await dndList('Opt-out A');
    const a = await campaignSentTo('A', phone, {
      externalId: 'wamid.A',
      minutesAgo: 10,
      actions: { Sair: { action: 'end_dnd', dnd_list: [optOut.id], message: 'Removido' } },
    });
    const b = await campaignSentTo('B', phone, {
      externalId: 'wamid.B',
      minutesAgo: 5,
      actions: { Sair: { action: 'end_with_message', message: 'Até logo' } },
    });
    const { conversationId, answered } = await reply(phone, { button: 'Sair', context: 'wamid.A' });
    expect(answered).toMatchObject({ campaign_name: 'A', reply_action: 'end_dnd', executed: true });
    const conversation = await t.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(await t.db.dndContact.count({ where: { dndListId: optOut.id, contactId: conversation.contactId } })).toBe(1);
    expect([await stateOf(a.id), await stateOf(b.id)]).toEqual(['completed', 'sent']);
  });

  it('answers nothing when the quoted campaign was already answered, rather than running another campaign', async () => {
    const phone = nextPhone();
    const a = await campaignSentTo('A2', phone, { externalId: 'wamid.A2', minutesAgo: 10 });
    const b = await campaignSentTo('B2', phone, { externalId: 'wamid.B2', minutesAgo: 5 });
    await reply(phone, { text: 'ok', context: 'wamid.A2' });
    expect((await reply(phone, { text: 'de novo', context: 'wamid.A2' })).answered).toBeNull();
    expect([await stateOf(a.id), await stateOf(b.id)]).toEqual(['completed', 'sent']);
  });

  it('without a quote, picks the newest campaign whose buttons include the one pressed', async () => {
    const phone = nextPhone();
    const withButton = await campaignSentTo('Com botão', phone, {
      minutesAgo: 10,
      actions: { Quero: { action: 'end_with_message', message: 'Anotado' } },
    });
    const newest = await campaignSentTo('Mais nova', phone, { minutesAgo: 2 });
    const { answered } = await reply(phone, { button: 'Quero' });
    expect(answered).toMatchObject({ campaign_name: 'Com botão' });
    expect(await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: withButton.id } })).toMatchObject({
      state: 'completed',
      replyAction: 'Quero',
    });
    expect(await stateOf(newest.id)).toBe('sent');
  });

  // A send whose outcome was never learnt is 'unknown'; the contact's reply proves it arrived.
  it('settles an unknown send by the reply to it, and runs the reply action', async () => {
    const phone = nextPhone();
    const campaign = await campaignSentTo('Desconhecido', phone, {
      state: 'unknown',
      minutesAgo: 4,
      actions: { Quero: { action: 'end_with_message', message: 'Anotado' } },
    });
    const { conversationId, answered } = await reply(phone, { button: 'Quero' });
    expect(answered).toMatchObject({ campaign_name: 'Desconhecido', reply_action: 'end_with_message', executed: true });
    expect(await t.db.campaignSubscriber.findFirstOrThrow({ where: { campaignId: campaign.id } })).toMatchObject({
      state: 'completed',
      replyAction: 'Quero',
    });
    expect(await t.db.message.count({ where: { conversationId, content: 'Anotado' } })).toBe(1);
  });

  it('matches a Brazilian mobile that WhatsApp writes without the ninth digit', async () => {
    const phone = nextPhone(); // +55 11 9xxxx-xxxx
    const campaign = await campaignSentTo('Nono dígito', phone, { minutesAgo: 3 });
    const withoutNinth = `+5511${phone.slice(6)}`;
    expect(withoutNinth).toHaveLength(phone.length - 1);
    const { answered } = await reply(withoutNinth, { text: 'Oi' });
    expect(answered).toMatchObject({ campaign_name: 'Nono dígito' });
    expect(await stateOf(campaign.id)).toBe('completed');
  });
});

describe('a reply in a conversation that was already open', () => {
  it('leaves the agent’s active chat open, shows the action as history, still honours the opt-out and stores the template message', async () => {
    const phone = nextPhone();
    const first = await reply(phone, { text: 'Preciso de ajuda com meu pedido' });
    expect(first.answered).toBeNull();
    await t.db.conversation.update({
      where: { id: first.conversationId },
      data: { state: 'answered', userId: tenant.users.agent!.id, sectorId: tenant.sectors[0]!.id },
    });
    const optOut = await dndList('Opt-out chat');
    const campaign = await campaignSentTo('Promo', phone, {
      minutesAgo: 0,
      actions: { Sair: { action: 'end_dnd', dnd_list: [optOut.id], message: 'Removido' } },
    });
    const { conversationId, answered } = await reply(phone, { button: 'Sair' });
    expect(conversationId).toBe(first.conversationId);
    expect(answered).toMatchObject({ reply_action: 'end_dnd', executed: false });
    expect(await stateOf(campaign.id)).toBe('completed');
    const conversation = await t.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conversation).toMatchObject({ state: 'answered', userId: tenant.users.agent!.id });
    expect(await t.db.dndContact.count({ where: { dndListId: optOut.id, contactId: conversation.contactId } })).toBe(1);
    const events = await t.db.conversationEvent.findMany({ where: { conversationId }, orderBy: { at: 'asc' } });
    expect(events.map((e) => e.type)).not.toContain('closed');
    expect(events.find((e) => e.type === 'campaign-reply')?.detail).toMatchObject({
      campaign_name: 'Promo',
      reply_action: 'end_dnd',
      executed: false,
    });
    const messages = await t.db.message.findMany({ where: { conversationId, author: 'USER' } });
    // The template as the subscriber received it, and no 'Removido' sent over the agent's head.
    expect(messages.map((m) => [m.content, m.state])).toEqual([['Olá Ana, sua oferta: Promo', 'sent']]);
  });

  it('does not close a waiting request with the campaign’s thank-you when the contact writes free text', async () => {
    const phone = nextPhone();
    const first = await reply(phone, { text: 'Quero falar com o suporte' });
    const campaign = await campaignSentTo('Pesquisa', phone, { minutesAgo: 0 });
    const { conversationId, answered } = await reply(phone, { text: 'Ainda estou esperando' });
    expect(conversationId).toBe(first.conversationId);
    expect(answered).toMatchObject({ campaign_name: 'Pesquisa', reply_action: 'end_with_message', executed: false });
    expect(await stateOf(campaign.id)).toBe('completed');
    expect(await t.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ state: 'waiting' });
    expect(await t.db.message.count({ where: { conversationId, content: 'Obrigado (Pesquisa)' } })).toBe(0);
  });

  it('runs the action on the conversation the reply opened, with the template message before the reply', async () => {
    const phone = nextPhone();
    await campaignSentTo('Própria', phone, { minutesAgo: 1 });
    const { conversationId, answered } = await reply(phone, { text: 'Oi' });
    expect(answered).toMatchObject({ reply_action: 'end_with_message', executed: true });
    expect(await t.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({
      state: 'closed',
      endedBy: 'system',
    });
    const messages = await t.db.message.findMany({ where: { conversationId }, orderBy: { createdAt: 'asc' } });
    expect(messages.map((m) => [m.author, m.content])).toEqual([
      ['USER', 'Olá Ana, sua oferta: Própria'],
      ['CONTACT', 'Oi'],
      ['USER', 'Obrigado (Própria)'],
    ]);
  });
});
