import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageDetailsOf } from '@atende/contract';
import { presentMessage } from '@atende/conversations';
import { startMetaSimulator, type MetaSimulator } from '@atende/simulators/meta';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useInboundHarness } from './harness';
import { processInbound } from './processor';

/**
 * Messenger webhooks end to end in the worker: the Meta simulator posts signed
 * deliveries to a capture server standing in for the api's webhook, each processed as the
 * channel-inbound job the api queues. Contacts are PSIDs, named by a profile lookup.
 */
const PAGE = '100200300999';
const credentials = { access_token: 'EAApage-token', app_secret: 'app-secret', verify_token: 'verify' };
const ana = { id: '7000123456789', firstName: 'Ana', lastName: 'Souza' };
const h = useInboundHarness({ name: 'Messenger', contentType: 'application/json' });
let sim: MetaSimulator;
let channelId: string;

beforeAll(async () => {
  sim = await startMetaSimulator({
    object: 'page',
    pageId: PAGE,
    pageToken: credentials.access_token,
    appSecret: credentials.app_secret,
    webhook: { url: h.webhookUrl, verifyToken: 'verify' },
  });
  channelId = await h.createChannel({
    name: 'Messenger',
    type: 'messenger',
    config: { base_url: sim.baseUrl, page_id: PAGE },
    credentials,
  });
});
afterAll(() => sim?.close());

const job = (body: string) => h.job(channelId, body);
const delivered = () => h.delivered();

describe('channel-inbound: Messenger messages into conversations', () => {
  it('opens one conversation in the entry sector for a PSID named by its profile, however often the delivery comes (idempotent by mid)', async () => {
    await sim.sendInbound({ from: ana, text: 'Oi, quero um orçamento' });
    const body = await delivered();
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    const identity = await h.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe(ana.id);
    expect(identity.contact).toMatchObject({ name: 'Ana Souza', phoneNumber: null });
    const conversations = await h.db.conversation.findMany({ where: { channelId }, include: { messages: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ contactId: identity.contactId, sectorId: h.sectorId });
    expect(conversations[0]!.messages).toEqual([
      expect.objectContaining({ author: 'CONTACT', content: 'Oi, quero um orçamento', externalId: expect.stringMatching(/^m_/) }),
    ]);
  });

  it('keeps an image as the message annex in the same conversation', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 5)]);
    await sim.sendInbound({ from: ana, image: jpeg });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await h.db.message.findFirstOrThrow({ where: { conversation: { channelId }, annexId: { not: null } } });
    const file = await h.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/jpeg', size: jpeg.length });
    expect(await readFile(join(h.storageDir, file.storageKey))).toEqual(jpeg);
    expect(await h.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('names a contact whose profile Meta does not give "Messenger user"', async () => {
    const unknown = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: PAGE,
          messaging: [
            { sender: { id: '7000999000111' }, recipient: { id: PAGE }, timestamp: Date.now(), message: { mid: 'm_unknown', text: 'oi' } },
          ],
        },
      ],
    });
    expect(await processInbound(h.deps, job(unknown))).toMatchObject({ messages: 1 });
    const identity = await h.db.contactIdentity.findFirstOrThrow({
      where: { channelId, identifier: '7000999000111' },
      include: { contact: true },
    });
    expect(identity.contact.name).toBe('Messenger user');
  });

  it('moves an agent message to delivered on a delivery receipt of its mid; drops a body that is no page webhook', async () => {
    const conversation = await h.db.conversation.findFirstOrThrow({ where: { channelId } });
    const sent = await h.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: h.tenantId,
        conversationId: conversation.id,
        author: 'USER',
        content: 'Olá',
        state: 'sent',
        externalId: 'm_agent_1',
      },
    });
    await sim.sendDelivery(ana.id, ['m_agent_1']);
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ statuses: 1 });
    const receipted = await h.db.message.findUniqueOrThrow({ where: { id: sent.id } });
    expect(receipted).toMatchObject({ state: 'sent', interactiveContent: { delivery: 'delivered' } });
    // The bubble shows its own "delivered" tick.
    expect(presentMessage(receipted).delivered).toBe(true);
    expect(await processInbound(h.deps, job(JSON.stringify({ object: 'instagram', entry: [] })))).toMatchObject({
      messages: 0,
      ignored: 1,
    });
  });

  it("marks the agent's messages sent up to a read watermark as read, and not the later ones", async () => {
    const conversation = await h.db.conversation.findFirstOrThrow({ where: { channelId } });
    const at = (ms: number) => new Date(Date.now() - ms);
    const older = await h.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: h.tenantId,
        conversationId: conversation.id,
        author: 'USER',
        content: 'Primeira',
        state: 'sent',
        externalId: 'm_agent_2',
        createdAt: at(60_000),
      },
    });
    const later = await h.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: h.tenantId,
        conversationId: conversation.id,
        author: 'USER',
        content: 'Depois',
        state: 'sent',
        externalId: 'm_agent_3',
        createdAt: at(-60_000),
      },
    });
    await sim.sendRead(ana.id, at(1000));
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 0 });
    expect(await h.db.message.findUniqueOrThrow({ where: { id: older.id } })).toMatchObject({ state: 'read' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id: later.id } })).toMatchObject({ state: 'sent' });
  });
});

describe('channel-inbound: every Messenger message kind is kept', () => {
  const bruno = { id: '7000123450002', firstName: 'Bruno', lastName: 'Lima' };

  it('keeps Get Started from a new contact as a message saying the button pressed, in a new conversation', async () => {
    await sim.sendInbound({ from: bruno, postback: { title: 'Começar', payload: 'GET_STARTED' } });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const identity = await h.db.contactIdentity.findFirstOrThrow({
      where: { channelId, identifier: bruno.id },
      include: { contact: true },
    });
    expect(identity.contact.name).toBe('Bruno Lima');
    const message = await h.db.message.findFirstOrThrow({ where: { contactId: identity.contactId } });
    expect(message).toMatchObject({ author: 'CONTACT', content: 'Começar' });
    expect(messageDetailsOf(message.interactiveContent).details).toEqual({ type: 'postback', payload: 'GET_STARTED' });
  });

  it('keeps every attachment of one message, each as a message of its own with its file, the text on the first', async () => {
    const jpeg = (fill: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1000, fill)]);
    const { body } = await sim.sendInbound({ from: bruno, text: 'As duas fotos', images: [jpeg(1), jpeg(2)] });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 2 });
    const mid = (body as { entry: { messaging: { message: { mid: string } }[] }[] }).entry[0]!.messaging[0]!.message.mid;
    const messages = await h.db.message.findMany({ where: { externalId: { startsWith: mid } }, orderBy: { externalId: 'asc' } });
    expect(messages.map((m) => [m.externalId, m.content, m.annexId !== null])).toEqual([
      [mid, 'As duas fotos', true],
      [`${mid}#2`, '', true],
    ]);
    const files = await h.db.storedFile.findMany({ where: { id: { in: messages.map((m) => m.annexId!) } } });
    expect(files.map((f) => f.size).sort()).toEqual([1004, 1004]);
  });

  it('takes no message on a disabled channel, and says so in the log', async () => {
    await h.db.channel.update({ where: { id: channelId }, data: { enabled: false } });
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    try {
      await sim.sendInbound({ from: bruno, text: 'Alguém aí?' });
      expect(await processInbound({ ...h.deps, log }, job(await delivered()))).toMatchObject({ messages: 0, ignored: 1 });
      expect(await h.db.message.count({ where: { content: 'Alguém aí?' } })).toBe(0);
      expect(warnings.join('')).toContain('message to a disabled channel not taken');
    } finally {
      await h.db.channel.update({ where: { id: channelId }, data: { enabled: true } });
    }
  });
});
