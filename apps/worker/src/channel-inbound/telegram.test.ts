import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TelegramAdapter } from '@atende/channels';
import { messageDetailsOf } from '@atende/contract';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/simulators/telegram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OUTBOUND, useInboundHarness } from './harness';
import { processInbound } from './processor';

/**
 * Telegram updates end to end in the worker: the Bot API simulator posts real updates to
 * a capture server standing in for the api's webhook, each processed as the channel-inbound job the
 * api queues. Contacts are known by their Telegram user id; media comes through getFile.
 */
const TOKEN = '7000000555:AAworker-inbound';
const ana = { id: 555000111, firstName: 'Ana', lastName: 'Souza', username: 'anasouza' };
const h = useInboundHarness({ name: 'Telegram', contentType: 'application/json' });
let sim: TelegramSimulator;
let channelId: string;

beforeAll(async () => {
  sim = await startTelegramSimulator({ token: TOKEN });
  const credentials = { bot_token: TOKEN, webhook_secret: 'tg-secret' };
  await new TelegramAdapter({ outbound: LOCAL_OUTBOUND }).setUp(
    { uuid: 'x', type: 'telegram', config: { base_url: sim.baseUrl }, credentials },
    { url: h.webhookUrl, secret: 'tg-secret' },
  );
  channelId = await h.createChannel({ name: 'Telegram', type: 'telegram', config: { base_url: sim.baseUrl }, credentials });
});
afterAll(() => sim?.close());

const job = (body: string) => h.job(channelId, body);
const delivered = () => h.delivered();

describe('channel-inbound: Telegram updates into conversations', () => {
  it('opens one conversation in the entry sector for a Telegram user, known by id with name and username, however often the update comes', async () => {
    await sim.sendInbound({ from: ana, text: 'Oi, quero um orçamento' });
    const body = await delivered();
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    expect(await processInbound(h.deps, job(body))).toMatchObject({ messages: 1 });
    const identity = await h.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe(String(ana.id));
    expect(identity.contact).toMatchObject({ name: 'Ana Souza', phoneNumber: null, fields: { telegram_username: 'anasouza' } });
    const conversations = await h.db.conversation.findMany({ where: { channelId }, include: { messages: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ contactId: identity.contactId, sectorId: h.sectorId });
    expect(conversations[0]!.messages).toEqual([
      expect.objectContaining({
        author: 'CONTACT',
        content: 'Oi, quero um orçamento',
        externalId: expect.stringMatching(new RegExp(`^${ana.id}:\\d+$`)),
      }),
    ]);
  });

  it('keeps a photo (the largest size) as the message annex, with its caption as text, in the same conversation', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 3)]);
    await sim.sendInbound({ from: ana, photo, caption: 'Foto do produto' });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await h.db.message.findFirstOrThrow({ where: { conversation: { channelId }, content: 'Foto do produto' } });
    const file = await h.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/jpeg', size: photo.length });
    expect(await readFile(join(h.storageDir, file.storageKey))).toEqual(photo);
    expect(await h.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('keeps a voice note as a voice message with its audio', async () => {
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(500, 1)]);
    await sim.sendInbound({ from: ana, voice: ogg });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await h.db.message.findFirstOrThrow({ where: { conversation: { channelId }, voice: true } });
    expect(await h.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } })).toMatchObject({
      contentType: 'audio/ogg',
      size: ogg.length,
    });
  });

  it('drops a body that is no Telegram update and ignores an edited message', async () => {
    expect(await processInbound(h.deps, job('{"entry":[]}'))).toMatchObject({ messages: 0, ignored: 1 });
    const edited = JSON.stringify({
      update_id: 9,
      edited_message: {
        message_id: 1,
        from: { id: ana.id, first_name: 'Ana' },
        chat: { id: ana.id, type: 'private' },
        date: 1,
        text: 'editado',
      },
    });
    expect(await processInbound(h.deps, job(edited))).toMatchObject({ messages: 0 });
    expect(await h.db.message.count({ where: { content: 'editado' } })).toBe(0);
  });
});

describe('channel-inbound: every Telegram message kind is kept', () => {
  const latest = () => h.db.message.findFirstOrThrow({ where: { conversation: { channelId } }, orderBy: { createdAt: 'desc' } });

  it('keeps a shared place as its name, address and map link, with the point in the details', async () => {
    await sim.sendInbound({
      from: ana,
      location: { latitude: -23.5614, longitude: -46.6559, venue: { title: 'MASP', address: 'Av. Paulista, 1578' } },
    });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await latest();
    expect(message.content).toBe(
      'MASP\nAv. Paulista, 1578\nhttps://www.openstreetmap.org/?mlat=-23.5614&mlon=-46.6559#map=17/-23.5614/-46.6559',
    );
    expect(messageDetailsOf(message.interactiveContent).details).toEqual({
      type: 'location',
      latitude: -23.5614,
      longitude: -46.6559,
      name: 'MASP',
      address: 'Av. Paulista, 1578',
    });
  });

  it('keeps a shared contact as a card with its name and number', async () => {
    await sim.sendInbound({ from: ana, contact: { phone_number: '+5511987654321', first_name: 'Bruno', last_name: 'Lima' } });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await latest();
    expect(message.content).toBe('Bruno Lima\n+5511987654321');
    expect(messageDetailsOf(message.interactiveContent).details).toEqual({
      type: 'contact',
      name: 'Bruno Lima',
      phones: ['+5511987654321'],
      emails: [],
    });
  });

  it('keeps a kind the desk cannot show (a poll) as an unsupported message naming its type', async () => {
    await sim.sendInbound({ from: ana, poll: { question: 'Qual cor?', options: ['Azul', 'Verde'] } });
    expect(await processInbound(h.deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await latest();
    expect(message.content).toBe('');
    expect(messageDetailsOf(message.interactiveContent).details).toEqual({ type: 'unsupported', raw_type: 'poll' });
  });
});
