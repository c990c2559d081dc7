import { createServer, type Server } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  channelAdapters,
  encryptCredentials,
  isWhatsAppAdapter,
  outboundClient,
  parseSecretsKey,
  type WhatsAppAdapter,
} from '@atende/channels';
import { startWhatsAppSimulator, type WhatsAppSimulator } from '@atende/simulators/whatsapp';
import { RealtimeEnvelopeSchema, type ChannelInboundJob, type RealtimeEnvelope } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { reconcileTemplates, syncTemplate, type TemplateSyncDeps } from '../templates/processor';
import { processInbound, type ChannelInboundDeps } from './processor';
// The tests' simulators listen on 127.0.0.1, listed as OUTBOUND_ALLOW_HOSTS would list them.
const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });

/**
 * Provider webhooks end to end in the worker: the 360dialog simulator posts its real webhooks to a
 * capture server (standing in for the api's webhook endpoint), and each captured delivery is
 * processed as the channel-inbound job the api would have queued.
 */
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
const credentials = { api_key: 'k-360', webhook_secret: 'hook-secret' };
let t: TestDatabase;
let redis: Redis;
let sim: WhatsAppSimulator;
let capture: Server;
let captured: { body: string; contentType: string }[] = [];
let storageDir: string;
let deps: ChannelInboundDeps;
let templateDeps: TemplateSyncDeps;
let tenantId: string;
let channelId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-inbound-'));
  capture = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      captured.push({ body, contentType: String(req.headers['content-type'] ?? '') });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
  const address = capture.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sim = await startWhatsAppSimulator({ provider: '360dialog', credentials, webhookUrl: `http://127.0.0.1:${port}/webhook` });
  const realtime = new RealtimeOutbox(redis, prefix);
  const log = pino({ level: 'silent' });
  const adapters = channelAdapters({ outbound: LOCAL_OUTBOUND });
  deps = { db: t.db, realtime, adapters, secretsKey, storage: new LocalDiskDriver(storageDir), log };
  templateDeps = { db: t.db, realtime, adapters, secretsKey, log };
  const tenant = await ensureTenant(t.db, {
    name: 'Inbound',
    users: { agent: ['agent'] },
    emailDomain: 'inbound.test',
    password: 'x1234567',
  });
  tenantId = tenant.tenantId;
  const channel = await t.db.channel.create({
    data: {
      tenantId,
      workspaceId: tenant.workspaceId,
      name: 'WhatsApp',
      type: 'whatsapp_360dialog',
      config: { base_url: sim.baseUrl, api_version: 'cloud' },
      credentialsEncrypted: encryptCredentials(credentials, secretsKey),
    },
  });
  channelId = channel.id;
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

const job = (delivery: { body: string; contentType: string }): ChannelInboundJob => ({
  tenant_uuid: tenantId,
  channel_uuid: channelId,
  content_type: delivery.contentType,
  raw_body: delivery.body,
  received_at: new Date().toISOString(),
});
async function delivered(count = 1) {
  await vi.waitFor(() => expect(captured.length).toBeGreaterThanOrEqual(count), { timeout: 5000, interval: 20 });
  expect(captured.length).toBe(count);
  return captured.splice(0, count);
}
/** One Cloud API webhook carrying several messages of one contact, processed twice (a retried job). */
async function cloudWebhook(phone: string, parts: Record<string, unknown>[]) {
  const waId = phone.replace(/^\+/, '');
  const messages = parts.map((part, i) => ({
    from: waId,
    id: `wamid.multi-${waId}-${i}`,
    timestamp: String(Math.floor(Date.now() / 1000) + i),
    ...part,
  }));
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '5511900000000', phone_number_id: 'p' },
    contacts: [{ profile: { name: 'Multi' }, wa_id: waId }],
    messages,
  };
  const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'waba', changes: [{ field: 'messages', value }] }] });
  const delivery = { body, contentType: 'application/json' };
  expect(await processInbound(deps, job(delivery))).toMatchObject({ messages: parts.length });
  expect(await processInbound(deps, job(delivery))).toMatchObject({ messages: parts.length });
}
async function emitted(): Promise<RealtimeEnvelope[]> {
  const entries = await redis.xrange(realtimeOutboxStream(prefix), '-', '+');
  return entries.map(([, fields]) => RealtimeEnvelopeSchema.parse(JSON.parse(fields[1]!)));
}

describe('channel-inbound: provider webhooks into conversations', () => {
  it('opens a conversation for a new contact, once, however often the webhook comes', async () => {
    await sim.sendInbound({ from: '+5511988887777', text: 'Oi, quero saber do meu pedido' });
    const [delivery] = await delivered();
    expect(await processInbound(deps, job(delivery!))).toMatchObject({ messages: 1 });
    expect(await processInbound(deps, job(delivery!))).toMatchObject({ messages: 1 });
    const messages = await t.db.message.findMany({ where: { tenantId, author: 'CONTACT' } });
    expect(messages.map((m) => m.content)).toEqual(['Oi, quero saber do meu pedido']);
    const conversation = await t.db.conversation.findUniqueOrThrow({
      where: { id: messages[0]!.conversationId },
      include: { contact: true },
    });
    expect(conversation).toMatchObject({ channelId, state: 'waiting' });
    expect(conversation.contact.phoneNumber).toBe('+5511988887777');
  });

  it('keeps a button reply with what was pressed, and media downloaded from the provider', async () => {
    await sim.sendInbound({ from: '+5511988887777', button: { text: 'Sim', payload: 'yes-1' } });
    await sim.sendInbound({
      from: '+5511988887777',
      media: { contentType: 'image/png', filename: 'foto.png', bytes: Buffer.from('89504e470d0a1a0a0000', 'hex') },
    });
    for (const delivery of await delivered(2)) await processInbound(deps, job(delivery));
    const [button, media] = await t.db.message.findMany({ where: { tenantId, author: 'CONTACT' }, orderBy: { createdAt: 'asc' }, skip: 1 });
    expect(button!.content).toBe('Sim');
    expect(button!.interactiveContent).toMatchObject({ type: 'button', text: 'Sim', payload: 'yes-1' });
    expect(media!.annexId).not.toBeNull();
    const file = await t.db.storedFile.findUniqueOrThrow({ where: { id: media!.annexId! } });
    expect(file).toMatchObject({ contentType: 'image/png', size: 10 });
    const stored = await deps.storage.get(file.storageKey);
    expect(stored?.size).toBe(10);
  });

  it('moves our message through delivered, read and failed with the provider error, never backwards', async () => {
    const conversation = await t.db.conversation.findFirstOrThrow({ where: { tenantId } });
    const message = await t.db.message.create({
      data: {
        id: randomUUID(),
        tenantId,
        conversationId: conversation.id,
        author: 'USER',
        content: 'Olá!',
        tags: [],
        state: 'sent',
        externalId: 'wamid.out-1',
      },
    });
    await sim.sendStatus('wamid.out-1', 'read');
    await sim.sendStatus('wamid.out-1', 'delivered');
    for (const delivery of await delivered(2)) await processInbound(deps, job(delivery));
    expect((await t.db.message.findUniqueOrThrow({ where: { id: message.id } })).state).toBe('read');
    const acks = (await emitted()).filter((e) => e.event === 'messages-ack');
    expect(acks.at(-1)?.payload).toMatchObject({ messages: [{ uuid: message.id, state: 'read', status: null }] });

    const other = await t.db.message.create({
      data: {
        id: randomUUID(),
        tenantId,
        conversationId: conversation.id,
        author: 'USER',
        content: 'x',
        tags: [],
        state: 'sent',
        externalId: 'wamid.out-2',
      },
    });
    await sim.sendStatus('wamid.out-2', 'failed', { code: '131026', title: 'Message undeliverable' });
    await processInbound(deps, job((await delivered())[0]!));
    expect(await t.db.message.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({
      status: 'failed',
      errorMessage: '131026: Message undeliverable',
    });
  });

  // A NUL or an unpaired surrogate in one message of a webhook failed the whole job
  // five times and lost the messages after it. Each message is cleaned and stored, once.
  it('stores every message of a webhook when one holds characters Postgres refuses, even in a button payload', async () => {
    const phone = '+5511977770001';
    await cloudWebhook(phone, [
      { type: 'text', text: { body: 'primeira' } },
      { type: 'text', text: { body: 'seg\u0000unda \ud800fim' } },
      { type: 'button', button: { text: 'Sim\u0000', payload: 'p\udc00' } },
    ]);
    const contact = await t.db.contact.findFirstOrThrow({ where: { tenantId, phoneNumber: phone } });
    const stored = await t.db.message.findMany({
      where: { tenantId, author: 'CONTACT', contactId: contact.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(stored.map((m) => m.content)).toEqual(['primeira', 'segunda \ufffdfim', 'Sim']);
    expect(stored[2]!.interactiveContent).toMatchObject({ type: 'button', text: 'Sim', payload: 'p\ufffd' });
  });

  it('drops a body it cannot read without failing the job', async () => {
    expect(await processInbound(deps, job({ body: '{"not":"a webhook"', contentType: 'application/json' }))).toMatchObject({
      ignored: 1,
      messages: 0,
    });
  });
});

describe('channel-inbound: the custom API channel', () => {
  it('stores the queued post under the uuid its answer named, keeps the accepted order, and drops what it cannot take', async () => {
    const custom = await t.db.channel.create({
      data: { tenantId, workspaceId: (await t.db.workspace.findFirstOrThrow({ where: { tenantId } })).id, name: 'API', type: 'custom' },
    });
    const queued = (body: object, receivedAt: Date): ChannelInboundJob => ({
      tenant_uuid: tenantId,
      channel_uuid: custom.id,
      content_type: 'application/json',
      raw_body: JSON.stringify(body),
      received_at: receivedAt.toISOString(),
    });
    const accepted = Date.now();
    const first = randomUUID();
    const second = randomUUID();
    const contact = { phone: '+5511977776666', name: 'Ana' };
    // The second post reaches the worker first.
    expect(
      await processInbound(deps, queued({ contact, message: { content: 'segunda' }, message_uuid: second }, new Date(accepted + 5))),
    ).toMatchObject({ messages: 1 });
    expect(
      await processInbound(deps, queued({ contact, message: { content: 'primeira' }, message_uuid: first }, new Date(accepted))),
    ).toMatchObject({ messages: 1 });
    const stored = await t.db.message.findMany({ where: { id: { in: [first, second] } }, orderBy: { createdAt: 'asc' } });
    expect(stored.map((m) => m.content)).toEqual(['primeira', 'segunda']);
    expect(new Set(stored.map((m) => m.conversationId)).size).toBe(1);

    // A body that is no queued post, and a post to a channel disabled since it was accepted, are dropped.
    expect(await processInbound(deps, queued({ contact, message: { content: 'x' } }, new Date()))).toMatchObject({
      messages: 0,
      ignored: 1,
    });
    await t.db.channel.update({ where: { id: custom.id }, data: { enabled: false } });
    const late = randomUUID();
    expect(await processInbound(deps, queued({ contact, message: { content: 'tarde' }, message_uuid: late }, new Date()))).toMatchObject({
      messages: 0,
      ignored: 1,
    });
    expect(await t.db.message.count({ where: { id: late } })).toBe(0);
  });
});

describe('templates at the provider', () => {
  const definition = { type: 'BODY', text: 'Olá {{1}}', example: { body_text: [['Ana']] } };

  it('submits a template, takes the status webhook, and tells open lists', async () => {
    const row = await t.db.outboundTemplate.create({
      data: {
        tenantId,
        channelId,
        name: 'boas_vindas',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'PENDING',
        components: [definition],
        syncPending: 'submit',
      },
    });
    expect(
      await syncTemplate(templateDeps, { tenant_uuid: tenantId, template_uuid: row.id, action: 'submit' }, { finalAttempt: false }),
    ).toBe('PENDING');
    expect(sim.templates().map((x) => x.name)).toContain('boas_vindas');
    // A second run of the same job changes nothing.
    expect(
      await syncTemplate(templateDeps, { tenant_uuid: tenantId, template_uuid: row.id, action: 'submit' }, { finalAttempt: false }),
    ).toBe('skipped');
    await sim.setTemplateStatus('boas_vindas', 'APPROVED');
    await processInbound(deps, job((await delivered())[0]!));
    expect((await t.db.outboundTemplate.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('APPROVED');
    const update = (await emitted()).filter((e) => e.event === 'update-template').at(-1);
    expect(update?.room).toBe(`campaigns_${tenantId}`);
    expect(update?.payload).toMatchObject({ template: { uuid: row.id, config: { status: 'APPROVED' } } });
  });

  // The provider may approve a new template and post its webhook before the worker has stored the
  // answer to the submission: the approval must not be lost behind the answer's PENDING.
  it('keeps a status whose webhook beat the answer to the submission', async () => {
    const row = await t.db.outboundTemplate.create({
      data: {
        tenantId,
        channelId,
        name: 'aprovado_cedo',
        language: 'pt_BR',
        category: 'UTILITY',
        status: 'PENDING',
        components: [definition],
        syncPending: 'submit',
      },
    });
    const original = templateDeps.adapters.get('whatsapp_360dialog');
    if (!original || !isWhatsAppAdapter(original)) throw new Error('no 360dialog adapter');
    // The provider's answer reaches the worker only after the approval's webhook was processed.
    const racing: WhatsAppAdapter = Object.create(original);
    racing.submitTemplate = async (...args) => {
      const answer = await original.submitTemplate(...args);
      await sim.setTemplateStatus('aprovado_cedo', 'APPROVED');
      await processInbound(deps, job((await delivered())[0]!));
      return answer;
    };
    const adapters = new Map(templateDeps.adapters).set('whatsapp_360dialog', racing);
    expect(
      await syncTemplate(
        { ...templateDeps, adapters },
        { tenant_uuid: tenantId, template_uuid: row.id, action: 'submit' },
        { finalAttempt: false },
      ),
    ).toBe('reported-meanwhile');
    const stored = await t.db.outboundTemplate.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored).toMatchObject({ status: 'APPROVED', syncPending: null });
    expect(stored.externalId).toBe(sim.templates().find((x) => x.name === 'aprovado_cedo')?.id);
  });

  it('retries a rate-limited submission and records a refusal as REJECTED with the reason', async () => {
    const row = await t.db.outboundTemplate.create({
      data: {
        tenantId,
        channelId,
        name: 'promo',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'PENDING',
        components: [definition],
        syncPending: 'submit',
      },
    });
    const payload = { tenant_uuid: tenantId, template_uuid: row.id, action: 'submit' as const };
    sim.rateLimitNext(1);
    await expect(syncTemplate(templateDeps, payload, { finalAttempt: false })).rejects.toThrow();
    expect((await t.db.outboundTemplate.findUniqueOrThrow({ where: { id: row.id } })).syncPending).toBe('submit');
    sim.failNext(1, 400);
    expect(await syncTemplate(templateDeps, payload, { finalAttempt: false })).toBe('rejected');
    const rejected = await t.db.outboundTemplate.findUniqueOrThrow({ where: { id: row.id } });
    expect(rejected).toMatchObject({ status: 'REJECTED', syncPending: null });
    expect(rejected.rejectedReason).toMatch(/400/);
  });

  it('reconciles statuses a lost webhook never told', async () => {
    await sim.setTemplateStatus('boas_vindas', 'PAUSED', 'Low quality');
    captured = [];
    expect(await reconcileTemplates(templateDeps)).toMatchObject({ changed: 1, failed: 0 });
    expect(await t.db.outboundTemplate.findFirstOrThrow({ where: { name: 'boas_vindas' } })).toMatchObject({
      status: 'PAUSED',
      rejectedReason: 'Low quality',
    });
    expect(await reconcileTemplates(templateDeps)).toMatchObject({ changed: 0 });
  });
});
