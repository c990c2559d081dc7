import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient } from '@atende/channels';
import { startEmailSimulator, type EmailSimulator } from '@atende/channels/email-simulator';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverMessage, type ChannelDeliveryDeps } from './processor';

/**
 * Agent messages out by SMTP (issue 15 item 3) to a real SMTP server the test starts on 127.0.0.1:
 * threading headers, subject, attachments, the server's refusals on the message (4xx retried,
 * 5xx failed with its reason, then the agent's retry), and the outbound address policy.
 */
const secretsKey = randomBytes(32);
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
let t: TestDatabase;
let redis: Redis;
let sim: EmailSimulator;
let storage: StorageDriver;
let storageDir: string;
let deps: ChannelDeliveryDeps;
let tenantId: string;
let workspaceId: string;
let channelId: string;
let contactId: string;
let conversationId: string;
let agentId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  sim = await startEmailSimulator({ username: 'suporte@loja.test', password: 'smtp-pass' });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-email-out-'));
  storage = new LocalDiskDriver(storageDir);
  deps = {
    db: t.db, realtime: new RealtimeOutbox(redis, prefix), adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }), email: { timeoutMs: 2000 } }),
    secretsKey, publicUrl: 'https://atende.example', fileLinkSecret: 'test-file-link-secret-0123456789-0123456789',
    storage: (service) => (service === storage.service ? storage : null), log: pino({ level: 'silent' }),
  };
  const tenant = await ensureTenant(t.db, { name: 'Mail out', users: { agent: ['agent'] }, emailDomain: 'mailout.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  workspaceId = tenant.workspaceId;
  agentId = tenant.users.agent!.id;
  channelId = (
    await t.db.channel.create({
      data: {
        tenantId, workspaceId, name: 'E-mail', type: 'email',
        config: { smtp_host: '127.0.0.1', smtp_port: String(sim.port), smtp_secure: 'false', from_address: 'suporte@loja.test' },
        credentialsEncrypted: encryptCredentials({ password: 'smtp-pass', webhook_secret: 's' }, secretsKey),
      },
    })
  ).id;
  contactId = (await t.db.contact.create({ data: { tenantId, name: 'Ana', email: 'ana@cliente.test' } })).id;
  await t.db.contactIdentity.create({ data: { tenantId, channelId, contactId, identifier: 'ana@cliente.test' } });
  conversationId = (await t.db.conversation.create({ data: { tenantId, workspaceId, contactId, channelId, userId: agentId, state: 'answered', ticketNumber: 1 } })).id;
  // The contact's mail that opened the conversation, as channel-inbound stores it.
  await t.db.message.create({
    data: {
      id: randomUUID(), tenantId, conversationId, author: 'CONTACT', contactId, content: 'Meu pedido não chegou.', state: 'sent', externalId: '<first@cliente.test>',
      interactiveContent: { type: 'email', subject: 'Pedido 123', message_id: '<first@cliente.test>', references: [] }, createdAt: new Date(Date.now() - 60_000),
    },
  });
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
  return (await t.db.message.create({ data: { id: randomUUID(), tenantId, conversationId, author: 'USER', userId: agentId, content, annexId, state: 'pending', status: 'sending' } })).id;
}
const deliver = (id: string, finalAttempt = false) => deliverMessage(deps, { tenant_uuid: tenantId, message_uuid: id }, { finalAttempt });

describe('channel delivery: e-mail (issue 15 item 3)', () => {
  it('sends the answer in the contact’s thread: our Message-ID, In-Reply-To and References, "Re: <subject>", text and HTML', async () => {
    const id = await agentMessage('Olá, Ana!\nJá estamos verificando <o pedido>.');
    const result = await deliver(id);
    expect(result).toEqual({ outcome: 'sent', externalId: `<${id}@loja.test>` });
    const [mail] = sim.sent();
    expect(mail).toMatchObject({
      envelopeFrom: 'suporte@loja.test', envelopeTo: ['ana@cliente.test'], subject: 'Re: Pedido 123', messageId: `<${id}@loja.test>`,
      inReplyTo: '<first@cliente.test>', references: ['<first@cliente.test>'], text: 'Olá, Ana!\nJá estamos verificando <o pedido>.',
    });
    expect(mail!.html).toContain('Já estamos verificando &lt;o pedido&gt;.');
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent', status: null, externalId: `<${id}@loja.test>` });
  });

  it('threads the next answer after our own (References carry both), and attaches a stored file', async () => {
    const bytes = Buffer.from('%PDF-1.4 orçamento');
    const key = `${tenantId}/${randomUUID()}`;
    await storage.put(key, bytes, { contentType: 'application/pdf', size: bytes.length });
    const file = await t.db.storedFile.create({ data: { tenantId, originalFilename: 'orcamento.pdf', contentType: 'application/pdf', size: bytes.length, service: storage.service, storageKey: key } });
    const previous = await t.db.message.findFirstOrThrow({ where: { conversationId, author: 'USER', state: 'sent' } });
    const id = await agentMessage('Segue o orçamento', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    const [mail] = sim.sent();
    expect(mail).toMatchObject({ subject: 'Re: Pedido 123', inReplyTo: previous.externalId, references: ['<first@cliente.test>', previous.externalId] });
    expect(mail!.attachments).toEqual([expect.objectContaining({ filename: 'orcamento.pdf', contentType: 'application/pdf', content: bytes })]);
  });

  it('shows a 5xx refusal on the message as failed with the server’s reason, and the agent’s retry delivers it', async () => {
    sim.failNext(1, 550, 'Mailbox unavailable');
    const id = await agentMessage('Oi de novo');
    const result = await deliver(id);
    expect(result).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('550 Mailbox unavailable') });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'pending', status: 'failed', errorMessage: expect.stringContaining('550 Mailbox unavailable') });
    // spec 000 §4: the retry sets the message sending again and queues it.
    await t.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()).toHaveLength(1);
  });

  it('retries a 4xx answer (transient) and fails only after the last attempt', async () => {
    sim.failNext(2, 451, 'Greylisted, try later');
    const id = await agentMessage('Tudo certo?');
    await expect(deliver(id)).rejects.toMatchObject({ kind: 'transient' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'sending' });
    await expect(deliver(id, true)).rejects.toMatchObject({ kind: 'transient' });
    expect(await t.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('451') });
  });

  it('fails permanently on a refused login, and on an SMTP host the address policy refuses (nothing connects)', async () => {
    const tenant = await t.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    await t.db.channel.update({ where: { id: channelId }, data: { credentialsEncrypted: encryptCredentials({ password: 'wrong', webhook_secret: 's' }, secretsKey) } });
    const id = await agentMessage('Login errado');
    expect(await deliver(id)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('SMTP') });
    await t.db.channel.update({ where: { id: channelId }, data: { credentialsEncrypted: tenant.credentialsEncrypted } });
    const strict = { ...deps, adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '' }) }) };
    const blocked = await agentMessage('Endereço privado');
    const result = await deliverMessage(strict, { tenant_uuid: tenantId, message_uuid: blocked }, { finalAttempt: false });
    expect(result).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('refused') });
    expect(sim.sent()).toEqual([]);
  });
});
