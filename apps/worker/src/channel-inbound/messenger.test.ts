import { createServer, type Server } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import { startMetaSimulator, type MetaSimulator } from '@atende/channels/meta-simulator';
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
 * Messenger webhooks end to end in the worker (issue 15 item 4): the Meta simulator posts signed
 * deliveries to a capture server standing in for the api's webhook, each processed as the
 * channel-inbound job the api queues. Contacts are PSIDs, named by a profile lookup.
 */
const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });
const PAGE = '100200300999';
const credentials = { access_token: 'EAApage-token', app_secret: 'app-secret', verify_token: 'verify' };
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
let t: TestDatabase;
let redis: Redis;
let sim: MetaSimulator;
let capture: Server;
let captured: string[] = [];
let storageDir: string;
let deps: ChannelInboundDeps;
let tenantId: string;
let workspaceId: string;
let channelId: string;
let sectorId: string;
const ana = { id: '7000123456789', firstName: 'Ana', lastName: 'Souza' };

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-messenger-'));
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
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhook`;
  sim = await startMetaSimulator({ object: 'page', pageId: PAGE, pageToken: credentials.access_token, appSecret: credentials.app_secret, webhook: { url, verifyToken: 'verify' } });
  deps = { db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: LOCAL_OUTBOUND }), secretsKey, storage: new LocalDiskDriver(storageDir), log: pino({ level: 'silent' }) };
  const tenant = await ensureTenant(t.db, { name: 'Messenger', users: { agent: ['agent'] }, emailDomain: 'messenger.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  workspaceId = tenant.workspaceId;
  sectorId = (await t.db.sector.create({ data: { tenantId, workspaceId, name: 'Vendas' } })).id;
  channelId = (
    await t.db.channel.create({
      data: { tenantId, workspaceId, name: 'Messenger', type: 'messenger', entrySectorId: sectorId, config: { base_url: sim.baseUrl, page_id: PAGE }, credentialsEncrypted: encryptCredentials(credentials, secretsKey) },
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
  if (!body) throw new Error('no webhook arrived');
  return body;
}

describe('channel-inbound: Messenger messages into conversations (issue 15 item 4)', () => {
  it('opens one conversation in the entry sector for a PSID named by its profile, however often the delivery comes (idempotent by mid)', async () => {
    await sim.sendInbound({ from: ana, text: 'Oi, quero um orçamento' });
    const body = await delivered();
    expect(await processInbound(deps, job(body))).toMatchObject({ messages: 1 });
    expect(await processInbound(deps, job(body))).toMatchObject({ messages: 1 });
    const identity = await t.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe(ana.id);
    expect(identity.contact).toMatchObject({ name: 'Ana Souza', phoneNumber: null });
    const conversations = await t.db.conversation.findMany({ where: { channelId }, include: { messages: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ contactId: identity.contactId, sectorId });
    expect(conversations[0]!.messages).toEqual([expect.objectContaining({ author: 'CONTACT', content: 'Oi, quero um orçamento', externalId: expect.stringMatching(/^m_/) })]);
  });

  it('keeps an image as the message annex in the same conversation', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 5)]);
    await sim.sendInbound({ from: ana, image: jpeg });
    expect(await processInbound(deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await t.db.message.findFirstOrThrow({ where: { conversation: { channelId }, annexId: { not: null } } });
    const file = await t.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/jpeg', size: jpeg.length });
    expect(await readFile(join(storageDir, file.storageKey))).toEqual(jpeg);
    expect(await t.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('names a contact whose profile Meta does not give "Messenger user"', async () => {
    const unknown = JSON.stringify({ object: 'page', entry: [{ id: PAGE, messaging: [{ sender: { id: '7000999000111' }, recipient: { id: PAGE }, timestamp: Date.now(), message: { mid: 'm_unknown', text: 'oi' } }] }] });
    expect(await processInbound(deps, job(unknown))).toMatchObject({ messages: 1 });
    const identity = await t.db.contactIdentity.findFirstOrThrow({ where: { channelId, identifier: '7000999000111' }, include: { contact: true } });
    expect(identity.contact.name).toBe('Messenger user');
  });

  it('moves an agent message to delivered on a delivery receipt of its mid; drops a body that is no page webhook', async () => {
    const conversation = await t.db.conversation.findFirstOrThrow({ where: { channelId } });
    const sent = await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId: conversation.id, author: 'USER', content: 'Olá', state: 'sent', externalId: 'm_agent_1' } });
    await sim.sendDelivery(ana.id, ['m_agent_1']);
    expect(await processInbound(deps, job(await delivered()))).toMatchObject({ statuses: 1 });
    expect(await t.db.message.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ state: 'sent', interactiveContent: { delivery: 'delivered' } });
    expect(await processInbound(deps, job(JSON.stringify({ object: 'instagram', entry: [] })))).toMatchObject({ messages: 0, ignored: 1 });
  });

  it("marks the agent's messages sent up to a read watermark as read, and not the later ones", async () => {
    const conversation = await t.db.conversation.findFirstOrThrow({ where: { channelId } });
    const at = (ms: number) => new Date(Date.now() - ms);
    const older = await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId: conversation.id, author: 'USER', content: 'Primeira', state: 'sent', externalId: 'm_agent_2', createdAt: at(60_000) } });
    const later = await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId: conversation.id, author: 'USER', content: 'Depois', state: 'sent', externalId: 'm_agent_3', createdAt: at(-60_000) } });
    await sim.sendRead(ana.id, at(1000));
    expect(await processInbound(deps, job(await delivered()))).toMatchObject({ messages: 0 });
    expect(await t.db.message.findUniqueOrThrow({ where: { id: older.id } })).toMatchObject({ state: 'read' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id: later.id } })).toMatchObject({ state: 'sent' });
  });
});
