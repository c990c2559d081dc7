import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/channels/whatsapp-simulator';
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
 * SMS/MMS end to end in the worker (issue 15 item 2): the Twilio simulator (SMS dialect) posts real
 * signed webhooks to a capture server standing in for the api's webhook, each processed as the
 * channel-inbound job the api queues.
 */
const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });
const SID = 'AC11111111111111111111111111111111';
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
let t: TestDatabase;
let redis: Redis;
let sim: WhatsAppSimulator;
let capture: Server;
let captured: string[] = [];
let storageDir: string;
let deps: ChannelInboundDeps;
let tenantId: string;
let channelId: string;
let sectorId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-sms-'));
  capture = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      captured.push(body);
      res.end('');
    });
  });
  await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
  const address = capture.address();
  const credentials = { auth_token: 'sms-token' };
  sim = await startWhatsAppSimulator({ provider: 'twilio_sms', credentials: { account_sid: SID, ...credentials }, webhookUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhook` });
  deps = { db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: LOCAL_OUTBOUND }), secretsKey, storage: new LocalDiskDriver(storageDir), log: pino({ level: 'silent' }) };
  const tenant = await ensureTenant(t.db, { name: 'SMS', users: { agent: ['agent'] }, emailDomain: 'sms.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  sectorId = (await t.db.sector.create({ data: { tenantId, workspaceId: tenant.workspaceId, name: 'Vendas' } })).id;
  channelId = (
    await t.db.channel.create({
      data: {
        tenantId, workspaceId: tenant.workspaceId, name: 'SMS', type: 'sms', entrySectorId: sectorId,
        config: { base_url: sim.baseUrl, account_sid: SID, from_number: '+15005550006', mms_enabled: 'true' },
        credentialsEncrypted: encryptCredentials(credentials, secretsKey),
      },
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

const job = (body: string): ChannelInboundJob => ({ tenant_uuid: tenantId, channel_uuid: channelId, content_type: 'application/x-www-form-urlencoded', raw_body: body, received_at: new Date().toISOString() });
async function delivered(): Promise<string> {
  const deadline = Date.now() + 5000;
  while (!captured.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const body = captured.shift();
  if (!body) throw new Error('no webhook arrived');
  return body;
}

describe('channel-inbound: SMS into conversations (issue 15 item 2)', () => {
  it('opens one conversation in the entry sector for the sender number, and stores a repeated MessageSid once', async () => {
    const sid = await sim.sendInbound({ from: '+5511988887777', text: 'Oi, quero um orçamento' });
    const body = await delivered();
    expect(await processInbound(deps, job(body))).toMatchObject({ messages: 1 });
    await processInbound(deps, job(body));
    const conversations = await t.db.conversation.findMany({ where: { channelId }, include: { messages: true, contact: true } });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ sectorId, contact: expect.objectContaining({ phoneNumber: expect.stringContaining('5511988887777') }) });
    expect(conversations[0]!.messages).toEqual([expect.objectContaining({ author: 'CONTACT', content: 'Oi, quero um orçamento', externalId: sid })]);
  });

  it('keeps an MMS picture as the message annex, its text as caption, in the same conversation', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 5)]);
    await sim.sendInbound({ from: '+5511988887777', media: { contentType: 'image/png', bytes: png, caption: 'Foto do produto' } });
    expect(await processInbound(deps, job(await delivered()))).toMatchObject({ messages: 1 });
    const message = await t.db.message.findFirstOrThrow({ where: { conversation: { channelId }, content: 'Foto do produto' } });
    const file = await t.db.storedFile.findUniqueOrThrow({ where: { id: message.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/png', size: png.length });
    expect(await readFile(join(storageDir, file.storageKey))).toEqual(png);
    expect(await t.db.conversation.count({ where: { channelId } })).toBe(1);
  });

  it('drops a body without MessageSid', async () => {
    expect(await processInbound(deps, job('From=%2B5511988887777&Body=oi'))).toMatchObject({ messages: 0 });
    expect(await t.db.message.count({ where: { content: 'oi' } })).toBe(0);
  });
});
