import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey, TelegramAdapter } from '@atende/channels';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/channels/telegram-simulator';
import type { ChannelInboundJob } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processInbound, type ChannelInboundDeps } from './processor';

/**
 * Telegram updates end to end in the worker (issue 15): the Bot API simulator posts real updates to
 * a capture server standing in for the api's webhook, each processed as the channel-inbound job the
 * api queues. Contacts are known by their Telegram user id; media comes through getFile.
 */
const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });
const TOKEN = '7000000555:AAworker-inbound';
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 9).toString('base64'));
let t: TestDatabase;
let redis: Redis;
let sim: TelegramSimulator;
let capture: Server;
let captured: string[] = [];
let storageDir: string;
let deps: ChannelInboundDeps;
let tenantId: string;
let channelId: string;
let sectorId: string;
const ana = { id: 555000111, firstName: 'Ana', lastName: 'Souza', username: 'anasouza' };

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-telegram-'));
  capture = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      captured.push(body);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
  const address = capture.address();
  sim = await startTelegramSimulator({ token: TOKEN });
  const credentials = { bot_token: TOKEN, webhook_secret: 'tg-secret' };
  await new TelegramAdapter({ outbound: LOCAL_OUTBOUND }).setUp({ uuid: 'x', type: 'telegram', config: { base_url: sim.baseUrl }, credentials }, { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhook`, secret: 'tg-secret' });
  deps = { db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: LOCAL_OUTBOUND }), secretsKey, storage: new LocalDiskDriver(storageDir), log: pino({ level: 'silent' }) };
  const tenant = await ensureTenant(t.db, { name: 'Telegram', users: { agent: ['agent'] }, emailDomain: 'telegram.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  sectorId = (await t.db.sector.create({ data: { tenantId, workspaceId: tenant.workspaceId, name: 'Vendas' } })).id;
  channelId = (
    await t.db.channel.create({
      data: { tenantId, workspaceId: tenant.workspaceId, name: 'Telegram', type: 'telegram', entrySectorId: sectorId, config: { base_url: sim.baseUrl }, credentialsEncrypted: encryptCredentials(credentials, secretsKey) },
    })
  ).id;
});
afterAll(async () => {
  await sim?.close();
  capture?.close();
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});
beforeEach(() => {
  captured = [];
});

const job = (body: string): ChannelInboundJob => ({ tenant_uuid: tenantId, channel_uuid: channelId, content_type: 'application/json', raw_body: body, received_at: new Date().toISOString() });
async function delivered(): Promise<string> {
  const deadline = Date.now() + 5000;
  while (!captured.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const body = captured.shift();
  if (!body) throw new Error('no update arrived');
  return body;
}

describe('channel-inbound: Telegram updates into conversations (issue 15)', () => {
  it('opens one conversation in the entry sector for a Telegram user, known by id with name and username, however often the update comes', async () => {
    await sim.sendInbound({ from: ana, text: 'Oi, quero um orçamento' });
    const body = await delivered();
    expect(await processInbound(deps, job(body))).toMatchObject({ messages: 1 });
    expect(await processInbound(deps, job(body))).toMatchObject({ messages: 1 });
    const identity = await t.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe(String(ana.id));
    expect(identity.contact).toMatchObject({ name: 'Ana Souza', phoneNumber: null, fields: { telegram_username: 'anasouza' } });
    const conversations = await t.db.conversation.findMany({ where: { channelId }, include: { messages: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ contactId: identity.contactId, sectorId });
    expect(conversations[0]!.messages).toEqual([expect.objectContaining({ author: 'CONTACT', content: 'Oi, quero um orçamento', externalId: expect.stringMatching(new RegExp(`^${ana.id}:\\d+$`)) })]);
  });

  it('keeps a photo (the largest size) as the message annex, with its caption as text, in the same conversation', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 3)]);
    await sim.sendInbound({ from: ana, photo, caption: 'Foto do produto' });
    expect(await processInbound(deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await t.db.message.findFirstOrThrow({ where: { conversation: { channelId }, content: 'Foto do produto' } });
    const file = await t.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/jpeg', size: photo.length });
    expect(await readFile(join(storageDir, file.storageKey))).toEqual(photo);
    expect(await t.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('keeps a voice note as a voice message with its audio', async () => {
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(500, 1)]);
    await sim.sendInbound({ from: ana, voice: ogg });
    expect(await processInbound(deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await t.db.message.findFirstOrThrow({ where: { conversation: { channelId }, voice: true } });
    expect(await t.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } })).toMatchObject({ contentType: 'audio/ogg', size: ogg.length });
  });

    it('drops a body that is no Telegram update and ignores an edited message', async () => {
    expect(await processInbound(deps, job('{"entry":[]}'))).toMatchObject({ messages: 0, ignored: 1 });
    const edited = JSON.stringify({ update_id: 9, edited_message: { message_id: 1, from: { id: ana.id, first_name: 'Ana' }, chat: { id: ana.id, type: 'private' }, date: 1, text: 'editado' } });
    expect(await processInbound(deps, job(edited))).toMatchObject({ messages: 0 });
    expect(await t.db.message.count({ where: { content: 'editado' } })).toBe(0);
  });
});
