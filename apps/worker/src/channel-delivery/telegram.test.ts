import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient } from '@atende/channels';
import { startTelegramSimulator, type TelegramSimulator } from '@atende/channels/telegram-simulator';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverMessage, type ChannelDeliveryDeps } from './processor';

/** Agent messages out through the Telegram Bot API simulator (issue 15): text, files, and the provider's errors on the message. */
const TOKEN = '7000000777:AAworker-delivery';
const secretsKey = randomBytes(32);
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const CHAT = '555000222';
let t: TestDatabase;
let redis: Redis;
let sim: TelegramSimulator;
let storage: StorageDriver;
let storageDir: string;
let deps: ChannelDeliveryDeps;
let tenantId: string;
let conversationId: string;
let agentId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startTelegramSimulator({ token: TOKEN });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-tg-out-'));
  storage = new LocalDiskDriver(storageDir);
  deps = {
    db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }), telegram: { timeoutMs: 2000 } }),
    secretsKey, publicUrl: 'https://atende.example', fileLinkSecret: 'test-file-link-secret-0123456789-0123456789',
    storage: (service) => (service === storage.service ? storage : null), log: pino({ level: 'silent' }),
  };
  const tenant = await ensureTenant(t.db, { name: 'TG out', users: { agent: ['agent'] }, emailDomain: 'tgout.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  agentId = tenant.users.agent!.id;
  const channel = await t.db.channel.create({
    data: { tenantId, workspaceId: tenant.workspaceId, name: 'Telegram', type: 'telegram', config: { base_url: sim.baseUrl }, credentialsEncrypted: encryptCredentials({ bot_token: TOKEN, webhook_secret: 's' }, secretsKey) },
  });
  const contact = await t.db.contact.create({ data: { tenantId, name: 'Ana' } });
  await t.db.contactIdentity.create({ data: { tenantId, channelId: channel.id, contactId: contact.id, identifier: CHAT } });
  conversationId = (await t.db.conversation.create({ data: { tenantId, workspaceId: tenant.workspaceId, contactId: contact.id, channelId: channel.id, userId: agentId, state: 'answered', ticketNumber: 1 } })).id;
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await sim?.close();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});
beforeEach(() => sim.reset());

async function agentMessage(content: string, annexId: string | null = null, voice = false) {
  const m = await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId, author: 'USER', userId: agentId, content, annexId, voice, state: 'pending', status: 'sending' } });
  return m.id;
}
const deliver = (id: string, finalAttempt = false) => deliverMessage(deps, { tenant_uuid: tenantId, message_uuid: id }, { finalAttempt });

describe('channel delivery: Telegram (issue 15)', () => {
  it('sends text with sendMessage to the contact’s chat and marks it sent (Telegram sends bots no receipts)', async () => {
    const id = await agentMessage('Olá, Ana! Como posso ajudar?');
    expect(await deliver(id)).toMatchObject({ outcome: 'sent', externalId: expect.stringMatching(new RegExp(`^${CHAT}:\\d+$`)) });
    expect(sim.sent()).toEqual([expect.objectContaining({ method: 'sendMessage', chatId: CHAT, text: 'Olá, Ana! Como posso ajudar?' })]);
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null });
  });

  it('uploads a stored document with its caption (sendDocument, multipart from storage)', async () => {
    const bytes = Buffer.from('%PDF-1.4 orçamento');
    const key = `${tenantId}/${randomUUID()}`;
    await storage.put(key, bytes, { contentType: 'application/pdf', size: bytes.length });
    const file = await t.db.storedFile.create({ data: { tenantId, originalFilename: 'orcamento.pdf', contentType: 'application/pdf', size: bytes.length, service: storage.service, storageKey: key } });
    const id = await agentMessage('Segue o orçamento', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()).toEqual([expect.objectContaining({ method: 'sendDocument', chatId: CHAT, caption: 'Segue o orçamento', file: expect.objectContaining({ filename: 'orcamento.pdf', bytes }) })]);
  });

  it('shows a provider refusal on the message as failed with its reason, and the retry delivers it', async () => {
    sim.failNext(1, 403);
    const id = await agentMessage('Oi de novo');
    expect(await deliver(id)).toEqual({ outcome: 'failed', reason: 'Telegram answered 403: Forbidden: bot was blocked by the user' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'pending', status: 'failed', errorMessage: 'Telegram answered 403: Forbidden: bot was blocked by the user' });
    // The agent's retry (spec 000 §4) sets the message sending again and queues it.
    await t.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null, errorMessage: null });
  });

  it('retries flood control (429) and fails the message only after the last attempt; refuses a text over 4096 without calling', async () => {
    sim.rateLimitNext(1, 3);
    const limited = await agentMessage('Tudo certo?');
    await expect(deliver(limited)).rejects.toMatchObject({ kind: 'transient' });
    expect(await deliver(limited)).toMatchObject({ outcome: 'sent' });
    const long = await agentMessage('x'.repeat(4097));
    const result = await deliver(long);
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(result.outcome === 'failed' && result.reason).toContain('channel_text_too_long');
    expect(sim.sent().filter((s) => s.text?.startsWith('xxx'))).toEqual([]);
  });
});
