import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/channels/whatsapp-simulator';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processInbound } from '../channel-inbound/processor';
import { deliverMessage, type ChannelDeliveryDeps } from './processor';

/** Agent messages out as SMS through the Twilio simulator (issue 15 item 2): text, MMS, errors on the message, status callbacks. */
const SID = 'AC22222222222222222222222222222222';
const secretsKey = randomBytes(32);
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const PHONE = '+5511977776666';
let t: TestDatabase;
let redis: Redis;
let sim: WhatsAppSimulator;
let storage: StorageDriver;
let storageDir: string;
let deps: ChannelDeliveryDeps;
let tenantId: string;
let channelId: string;
let conversationId: string;
let agentId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startWhatsAppSimulator({ provider: 'twilio_sms', credentials: { account_sid: SID, auth_token: 'sms-token' } });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-sms-out-'));
  storage = new LocalDiskDriver(storageDir);
  deps = {
    db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }), sms: { timeoutMs: 2000 } }),
    secretsKey, publicUrl: 'https://atende.example', fileLinkSecret: 'test-file-link-secret-0123456789-0123456789',
    storage: (service) => (service === storage.service ? storage : null), log: pino({ level: 'silent' }),
  };
  const tenant = await ensureTenant(t.db, { name: 'SMS out', users: { agent: ['agent'] }, emailDomain: 'smsout.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  agentId = tenant.users.agent!.id;
  const channel = await t.db.channel.create({
    data: {
      tenantId, workspaceId: tenant.workspaceId, name: 'SMS', type: 'sms',
      config: { base_url: sim.baseUrl, account_sid: SID, from_number: '+15005550006', mms_enabled: 'true' },
      credentialsEncrypted: encryptCredentials({ auth_token: 'sms-token' }, secretsKey),
    },
  });
  channelId = channel.id;
  const contact = await t.db.contact.create({ data: { tenantId, name: 'Ana', phoneNumber: PHONE } });
  await t.db.contactIdentity.create({ data: { tenantId, channelId, contactId: contact.id, identifier: PHONE } });
  conversationId = (await t.db.conversation.create({ data: { tenantId, workspaceId: tenant.workspaceId, contactId: contact.id, channelId, userId: agentId, state: 'answered', ticketNumber: 1 } })).id;
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await sim?.close();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});
beforeEach(() => sim.reset());

async function agentMessage(content: string, annexId: string | null = null) {
  const m = await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId, author: 'USER', userId: agentId, content, annexId, state: 'pending', status: 'sending' } });
  return m.id;
}
const deliver = (id: string, finalAttempt = false) => deliverMessage(deps, { tenant_uuid: tenantId, message_uuid: id }, { finalAttempt });
const statusCallback = (sid: string, status: string, error?: [string, string]) =>
  processInbound({ ...deps, storage }, {
    tenant_uuid: tenantId, channel_uuid: channelId, content_type: 'application/x-www-form-urlencoded', received_at: new Date().toISOString(),
    raw_body: new URLSearchParams({ MessageSid: sid, MessageStatus: status, To: PHONE, ...(error ? { ErrorCode: error[0], ErrorMessage: error[1] } : {}) }).toString(),
  });

describe('channel delivery: SMS through Twilio (issue 15 item 2)', () => {
  it('sends text to the contact number with a StatusCallback to the channel webhook; status callbacks move it to delivered', async () => {
    const id = await agentMessage('Olá, Ana! Como posso ajudar?');
    const result = await deliver(id);
    expect(result).toMatchObject({ outcome: 'sent', externalId: expect.stringMatching(/^SM/) });
    expect(sim.sent()).toEqual([expect.objectContaining({ body: expect.objectContaining({ To: PHONE, From: '+15005550006', Body: 'Olá, Ana! Como posso ajudar?', StatusCallback: `https://atende.example/api/v1/channels/${channelId}/webhook` }) })]);
    const externalId = result.outcome === 'sent' ? result.externalId! : '';
    await statusCallback(externalId, 'sent');
    await statusCallback(externalId, 'delivered');
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null, interactiveContent: { delivery: 'delivered' } });
    // A late 'sent' does not undo 'delivered'.
    await statusCallback(externalId, 'sent');
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ interactiveContent: { delivery: 'delivered' } });
  });

  it('sends a stored picture as MMS by our signed link', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const key = `${tenantId}/${randomUUID()}`;
    await storage.put(key, bytes, { contentType: 'image/png', size: bytes.length });
    const file = await t.db.storedFile.create({ data: { tenantId, originalFilename: 'foto.png', contentType: 'image/png', size: bytes.length, service: storage.service, storageKey: key } });
    const id = await agentMessage('Segue a foto', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()[0]!.body).toMatchObject({ Body: 'Segue a foto', MediaUrl: expect.stringContaining(`https://atende.example/`) });
    expect(String(sim.sent()[0]!.body.MediaUrl)).toContain(file.id);
  });

  it('shows error 21211 on the message as failed with its reason, and the retry delivers it', async () => {
    sim.failNext(1, 400);
    const id = await agentMessage('Oi de novo');
    const reason = "Twilio answered 400: (#21211) Invalid 'To' Phone Number";
    expect(await deliver(id)).toEqual({ outcome: 'failed', reason });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'pending', status: 'failed', errorMessage: reason });
    await t.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null, errorMessage: null });
  });

  it('marks a message failed with the carrier error when the status callback says undelivered', async () => {
    const id = await agentMessage('Vai chegar?');
    const result = await deliver(id);
    await statusCallback(result.outcome === 'sent' ? result.externalId! : '', 'undelivered', ['30003', 'Unreachable destination handset']);
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', errorMessage: '30003: Unreachable destination handset' });
  });

  it('refuses a text over 1600 characters without calling Twilio', async () => {
    const result = await deliver(await agentMessage('x'.repeat(1601)));
    expect(result.outcome === 'failed' && result.reason).toContain('channel_text_too_long');
    expect(sim.sent()).toEqual([]);
  });
});
