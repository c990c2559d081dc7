import { randomBytes, randomUUID } from 'node:crypto';
import { channelAdapters, encryptCredentials, outboundClient } from '@atende/channels';
import { startMetaSimulator, type MetaSimulator } from '@atende/channels/meta-simulator';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverMessage, type ChannelDeliveryDeps } from './processor';

/** Agent messages out through the Meta simulator's Send API (issue 15 item 4): text, files by link, the 24-hour window and Meta's errors on the message. */
const PAGE = '100200300777';
const PSID = '7000555000222';
const credentials = { access_token: 'EAAdelivery', app_secret: 'app-secret', verify_token: 'verify' };
const secretsKey = randomBytes(32);
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
let t: TestDatabase;
let redis: Redis;
let sim: MetaSimulator;
let deps: ChannelDeliveryDeps;
let tenantId: string;
let conversationId: string;
let contactMessageId: string;
let agentId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startMetaSimulator({ object: 'page', pageId: PAGE, pageToken: credentials.access_token, appSecret: credentials.app_secret });
  deps = {
    db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }), meta: { timeoutMs: 2000 } }),
    secretsKey, publicUrl: 'https://atende.example', fileLinkSecret: 'test-file-link-secret-0123456789-0123456789', log: pino({ level: 'silent' }),
  };
  const tenant = await ensureTenant(t.db, { name: 'Messenger out', users: { agent: ['agent'] }, emailDomain: 'msgout.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  agentId = tenant.users.agent!.id;
  const channel = await t.db.channel.create({
    data: { tenantId, workspaceId: tenant.workspaceId, name: 'Messenger', type: 'messenger', config: { base_url: sim.baseUrl, page_id: PAGE }, credentialsEncrypted: encryptCredentials(credentials, secretsKey) },
  });
  const contact = await t.db.contact.create({ data: { tenantId, name: 'Ana' } });
  await t.db.contactIdentity.create({ data: { tenantId, channelId: channel.id, contactId: contact.id, identifier: PSID } });
  conversationId = (await t.db.conversation.create({ data: { tenantId, workspaceId: tenant.workspaceId, contactId: contact.id, channelId: channel.id, userId: agentId, state: 'answered', ticketNumber: 1 } })).id;
  contactMessageId = (await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId, author: 'CONTACT', content: 'Oi', state: 'sent' } })).id;
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await sim?.close();
  await t?.drop();
});
beforeEach(async () => {
  sim.reset();
  sim.addContact({ id: PSID, firstName: 'Ana' });
  await t.db.message.update({ where: { id: contactMessageId }, data: { createdAt: new Date() } });
});

async function agentMessage(content: string, annexId: string | null = null) {
  const m = await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId, author: 'USER', userId: agentId, content, annexId, state: 'pending', status: 'sending' } });
  return m.id;
}
const deliver = (id: string, finalAttempt = false) => deliverMessage(deps, { tenant_uuid: tenantId, message_uuid: id }, { finalAttempt });

describe('channel delivery: Messenger (issue 15 item 4)', () => {
  it("sends text to the contact's PSID and stores Meta's mid", async () => {
    const id = await agentMessage('Olá, Ana! Como posso ajudar?');
    expect(await deliver(id)).toMatchObject({ outcome: 'sent', externalId: expect.stringMatching(/^m_/) });
    expect(sim.sent()).toEqual([expect.objectContaining({ recipient: PSID, text: 'Olá, Ana! Como posso ajudar?', attachment: null })]);
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null });
  });

  it('sends an image as an image attachment by its signed link', async () => {
    const file = await t.db.storedFile.create({ data: { tenantId, originalFilename: 'foto.png', contentType: 'image/png', size: 2000, service: 'local', storageKey: `${tenantId}/x` } });
    const id = await agentMessage('', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    const [sent] = sim.sent();
    expect(sent?.attachment?.type).toBe('image');
    expect(sent?.attachment?.url).toMatch(new RegExp(`^https://atende\\.example/.*${file.id}.*signature=`));
  });

  it('fails a reply more than 24 hours after the contact last wrote, with a clear reason and without calling Meta', async () => {
    await t.db.message.update({ where: { id: contactMessageId }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    const id = await agentMessage('Ainda está aí?');
    const result = await deliver(id);
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('channel_window_closed') });
    expect(sim.sent()).toEqual([]);
  });

  it('shows a Meta error on the message as failed, and the retry delivers it; rate limits are retried', async () => {
    sim.failNext(1, 400, { code: 551, message: '(#551) This person isn\'t available right now.' });
    const id = await agentMessage('Oi de novo');
    expect(await deliver(id)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('(#551)') });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'pending', status: 'failed' });
    await t.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    sim.rateLimitNext(1);
    const limited = await agentMessage('Tudo certo?');
    await expect(deliver(limited)).rejects.toMatchObject({ kind: 'transient' });
    expect(await deliver(limited)).toMatchObject({ outcome: 'sent' });
  });
});
