import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  channelAdapters,
  encryptCredentials,
  forwardingAddress,
  outboundClient,
  parseSecretsKey,
  type InboundSmtpListener,
} from '@atende/channels';
import { messageDetailsOf, queues, type ChannelInboundJob } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailInbound } from './email-listener';
import { processInbound, type ChannelInboundDeps } from './processor';

/**
 * E-mail into conversations end to end in the worker: mail is sent over real
 * SMTP (nodemailer) to the worker's inbound listener at the channel's forwarding address, queued
 * through the outbox as channel-inbound, and processed like every provider webhook.
 */
const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
const SECRET = 'mail-secret-0123456789abcdefghijkl';
let t: TestDatabase;
let redis: Redis;
let storageDir: string;
let listener: InboundSmtpListener;
let deps: ChannelInboundDeps;
let tenantId: string;
let channelId: string;
let sectorId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-email-'));
  deps = {
    db: t.db,
    realtime: new RealtimeOutbox(redis, prefix),
    adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }) }),
    secretsKey,
    storage: new LocalDiskDriver(storageDir),
    log: pino({ level: 'silent' }),
  };
  const tenant = await ensureTenant(t.db, { name: 'Email', users: { agent: ['agent'] }, emailDomain: 'email.test', password: 'x1234567' });
  tenantId = tenant.tenantId;
  sectorId = (await t.db.sector.create({ data: { tenantId, workspaceId: tenant.workspaceId, name: 'Suporte' } })).id;
  channelId = (
    await t.db.channel.create({
      data: {
        tenantId,
        workspaceId: tenant.workspaceId,
        name: 'Suporte por e-mail',
        type: 'email',
        entrySectorId: sectorId,
        config: { smtp_host: '127.0.0.1', smtp_port: '2525', from_address: 'suporte@loja.test' },
        credentialsEncrypted: encryptCredentials({ password: 'x', webhook_secret: SECRET }, secretsKey),
      },
    })
  ).id;
  listener = await startEmailInbound({ db: t.db, secretsKey, log: pino({ level: 'silent' }) }, { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await listener?.close();
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});

const mailer = () => nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
const inbox = () => forwardingAddress(channelId, SECRET, 'inbound.loja.test');

/** The channel-inbound jobs the listener queued since the last call, processed in order. */
async function processQueued(): Promise<number> {
  const jobs = await t.db.outboxJob.findMany({ where: { tenantId, queue: queues.channelInbound.name }, orderBy: { createdAt: 'asc' } });
  await t.db.outboxJob.deleteMany({ where: { id: { in: jobs.map((j) => j.id) } } });
  for (const job of jobs) await processInbound(deps, job.payload as ChannelInboundJob);
  return jobs.length;
}

describe('channel-inbound: e-mail into conversations', () => {
  it('opens a conversation in the entry sector for the sender, with the subject, sanitised HTML and the quoted history folded away', async () => {
    await mailer().sendMail({
      from: '"Ana Souza" <Ana@Cliente.test>',
      to: inbox(),
      subject: 'Pedido 123 atrasado',
      messageId: '<first@cliente.test>',
      text: 'Meu pedido não chegou.\n\n-- \nAna Souza\nDiretora',
      html: '<p>Meu pedido <b>não</b> chegou.</p><script>alert(1)</script><img src="https://tracker.test/p.gif"><a href="javascript:alert(1)" onclick="x()">link</a>',
    });
    expect(await processQueued()).toBe(1);
    const identity = await t.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe('ana@cliente.test');
    expect(identity.contact).toMatchObject({ name: 'Ana Souza', email: 'ana@cliente.test', phoneNumber: null });
    const conversation = await t.db.conversation.findFirstOrThrow({ where: { channelId }, include: { messages: true } });
    expect(conversation.sectorId).toBe(sectorId);
    const [message] = conversation.messages;
    expect(message).toMatchObject({ author: 'CONTACT', content: 'Meu pedido não chegou.', externalId: '<first@cliente.test>' });
    const details = message!.interactiveContent as Record<string, string>;
    expect(details).toMatchObject({
      type: 'email',
      subject: 'Pedido 123 atrasado',
      message_id: '<first@cliente.test>',
      full_text: expect.stringContaining('Diretora'),
    });
    expect(details.html).toContain('<b>não</b>');
    expect(details.html).not.toMatch(/script|onclick|javascript:|<img/i);
  });

  it('joins a reply (In-Reply-To our thread) to the open conversation, folding the quoted history, and stores a repeated delivery once', async () => {
    const reply = {
      from: 'ana@cliente.test',
      to: inbox(),
      subject: 'Re: Pedido 123 atrasado',
      messageId: '<second@cliente.test>',
      inReplyTo: '<first@cliente.test>',
      references: ['<first@cliente.test>'],
      text: 'Alguma novidade?\n\nEm 25 de nov. de 2026, Suporte <suporte@loja.test> escreveu:\n> Estamos verificando.\n',
    };
    await mailer().sendMail(reply);
    await mailer().sendMail(reply);
    expect(await processQueued()).toBe(2);
    const conversations = await t.db.conversation.findMany({
      where: { channelId },
      include: { messages: { orderBy: { createdAt: 'asc' } } },
    });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]!.messages.map((m) => m.content)).toEqual(['Meu pedido não chegou.', 'Alguma novidade?']);
    expect(conversations[0]!.messages[1]!.interactiveContent).toMatchObject({
      in_reply_to: '<first@cliente.test>',
      full_text: expect.stringContaining('Estamos verificando'),
    });
  });

  it('joins a colleague in copy answering the thread to that conversation, as their own message', async () => {
    const [conversation] = await t.db.conversation.findMany({ where: { channelId } });
    await mailer().sendMail({
      from: '"Bruno Lima" <bruno@cliente.test>',
      to: inbox(),
      cc: 'ana@cliente.test',
      subject: 'Re: Pedido 123 atrasado',
      messageId: '<colleague@cliente.test>',
      inReplyTo: '<second@cliente.test>',
      references: ['<first@cliente.test>', '<second@cliente.test>'],
      text: 'Sou o gerente da Ana, também aguardo.',
    });
    expect(await processQueued()).toBe(1);
    // No conversation of his own: the thread's, with his message, his contact and his address.
    const conversations = await t.db.conversation.findMany({ where: { channelId } });
    expect(conversations.map((c) => c.id)).toEqual([conversation!.id]);
    const message = await t.db.message.findFirstOrThrow({ where: { externalId: '<colleague@cliente.test>' } });
    expect(message.conversationId).toBe(conversation!.id);
    const bruno = await t.db.contactIdentity.findFirstOrThrow({ where: { channelId, identifier: 'bruno@cliente.test' } });
    expect(message.contactId).toBe(bruno.contactId);
    expect(message.contactId).not.toBe(conversation!.contactId);
    expect(message.interactiveContent).toMatchObject({ from: { address: 'bruno@cliente.test', name: 'Bruno Lima' } });
    expect((await t.db.conversation.findUniqueOrThrow({ where: { id: conversation!.id } })).unreadContactMessages).toBeGreaterThan(
      conversation!.unreadContactMessages,
    );

    // A mail of his own, answering nothing of ours, opens his own conversation as before.
    await mailer().sendMail({ from: 'bruno@cliente.test', to: inbox(), subject: 'Outro assunto', text: 'Uma dúvida minha.' });
    expect(await processQueued()).toBe(1);
    expect(await t.db.conversation.count({ where: { channelId, contactId: bruno.contactId } })).toBe(1);
    // And a mail answering a closed thread opens one too.
    await t.db.conversation.update({ where: { id: conversation!.id }, data: { state: 'closed', closedAt: new Date() } });
    await mailer().sendMail({
      from: 'carla@cliente.test',
      to: inbox(),
      subject: 'Re: Pedido 123 atrasado',
      inReplyTo: '<colleague@cliente.test>',
      text: 'Resolvido?',
    });
    expect(await processQueued()).toBe(1);
    const carla = await t.db.contactIdentity.findFirstOrThrow({ where: { channelId, identifier: 'carla@cliente.test' } });
    expect(await t.db.conversation.count({ where: { channelId, contactId: carla.contactId, state: { not: 'closed' } } })).toBe(1);
    await t.db.conversation.update({ where: { id: conversation!.id }, data: { state: 'waiting', closedAt: null } });
  });

  it('keeps every attachment as an annex of its own message', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3000)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2000)]);
    await mailer().sendMail({
      from: 'ana@cliente.test',
      to: inbox(),
      subject: 'Comprovante',
      messageId: '<files@cliente.test>',
      text: 'Seguem os arquivos.',
      attachments: [
        { filename: 'nota.pdf', content: pdf, contentType: 'application/pdf' },
        { filename: 'foto.png', content: png, contentType: 'image/png' },
      ],
    });
    expect(await processQueued()).toBe(1);
    const messages = await t.db.message.findMany({
      where: { conversation: { channelId }, externalId: { startsWith: '<files@' } },
      orderBy: { externalId: 'asc' },
    });
    expect(messages.map((m) => [m.externalId, m.content])).toEqual([
      ['<files@cliente.test>', 'Seguem os arquivos.'],
      ['<files@cliente.test>#2', ''],
    ]);
    const files = await Promise.all(messages.map((m) => t.db.storedFile.findUniqueOrThrow({ where: { id: m.annexId! } })));
    expect(files.map((f) => [f.originalFilename, f.contentType, f.size])).toEqual([
      ['nota.pdf', 'application/pdf', pdf.length],
      ['foto.png', 'image/png', png.length],
    ]);
    expect(await readFile(join(storageDir, files[1]!.storageKey))).toEqual(png);
  });

  it('takes mail to a forwarding address in any case: as shown, or lower- or upper-cased by a mail system', async () => {
    const secret = 'MiXeD-Case_Secret0123456789AbCdEf';
    const mixed = await t.db.channel.create({
      data: {
        tenantId,
        workspaceId: (await t.db.channel.findUniqueOrThrow({ where: { id: channelId } })).workspaceId,
        name: 'Vendas por e-mail',
        type: 'email',
        config: { smtp_host: '127.0.0.1', smtp_port: '2525', from_address: 'vendas@loja.test' },
        credentialsEncrypted: encryptCredentials({ password: 'x', webhook_secret: secret }, secretsKey),
      },
    });
    // The address as channels created before this change showed it: the token with the secret's own case.
    const shownBefore = `${mixed.id.replace(/-/g, '')}.${secret.slice(0, 24)}@inbound.loja.test`;
    const shownNow = forwardingAddress(mixed.id, secret, 'inbound.loja.test');
    expect(shownNow).toBe(shownNow.toLowerCase());
    for (const to of [shownBefore, shownNow, shownBefore.toUpperCase(), shownBefore.toLowerCase()]) {
      await mailer().sendMail({ from: 'bia@cliente.test', to, subject: 'Orçamento', text: `para ${to}` });
    }
    const jobs = await t.db.outboxJob.findMany({ where: { tenantId, queue: queues.channelInbound.name } });
    expect(jobs.filter((j) => (j.payload as ChannelInboundJob).channel_uuid === mixed.id)).toHaveLength(4);
    const wrong = forwardingAddress(mixed.id, 'not-the-secret-at-all-000000', 'inbound.loja.test');
    await expect(mailer().sendMail({ from: 'eve@mal.test', to: wrong.toUpperCase(), subject: 'x', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    expect(await processQueued()).toBe(4);
  });

  // One file-type policy for every way a file enters. The upload route refuses SVG
  // and HTML (a browser may run them from our origin); mail brought them in and kept them.
  it('leaves out attachments of a type the upload route refuses, keeping the message and saying what was left out', async () => {
    const before = await t.db.storedFile.count({ where: { tenantId } });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
    const html = Buffer.from('<html><body><script>fetch("/api/v1/users")</script></body></html>');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(500)]);
    await mailer().sendMail({
      from: 'ana@cliente.test',
      to: inbox(),
      subject: 'Arquivos',
      messageId: '<refused@cliente.test>',
      text: 'Vejam os anexos.',
      attachments: [
        { filename: 'logo.svg', content: svg, contentType: 'image/svg+xml' },
        { filename: 'page.html', content: html, contentType: 'text/html' },
        { filename: 'foto.png', content: png, contentType: 'image/png' },
      ],
    });
    expect(await processQueued()).toBe(1);
    const messages = await t.db.message.findMany({
      where: { conversation: { channelId }, externalId: { startsWith: '<refused@' } },
      orderBy: { externalId: 'asc' },
    });
    const leftOut = (content: unknown) => messageDetailsOf(content).leftOut;
    expect(messages.map((m) => [m.externalId, m.content, m.annexId === null, leftOut(m.interactiveContent)])).toEqual([
      ['<refused@cliente.test>', 'Vejam os anexos.', true, { refused_type: 'image/svg+xml' }],
      ['<refused@cliente.test>#2', '', true, { refused_type: 'text/html' }],
      ['<refused@cliente.test>#3', '', false, null],
    ]);
    const kept = await t.db.storedFile.findMany({ where: { tenantId, createdAt: { gte: messages[0]!.createdAt } } });
    expect(kept.map((f) => [f.originalFilename, f.contentType])).toEqual([['foto.png', 'image/png']]);
    expect(await t.db.storedFile.count({ where: { tenantId } })).toBe(before + 1);
  });

  it('refuses mail to a forwarding address with a wrong token or an unknown channel (550), queueing nothing', async () => {
    const wrong = forwardingAddress(channelId, 'not-the-secret-at-all-000000', 'inbound.loja.test');
    await expect(mailer().sendMail({ from: 'eve@mal.test', to: wrong, subject: 'x', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    await expect(
      mailer().sendMail({ from: 'eve@mal.test', to: `${channelId}@inbound.loja.test`, subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    expect(await processQueued()).toBe(0);
  });

  it('ignores auto-replies (no conversation for an out-of-office answer) and drops a body that is not mail', async () => {
    await mailer().sendMail({
      from: 'robo@cliente.test',
      to: inbox(),
      subject: 'Ausente',
      text: 'Estou de férias',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect(await processQueued()).toBe(1);
    expect(await t.db.contactIdentity.count({ where: { channelId, identifier: 'robo@cliente.test' } })).toBe(0);
    const junk: ChannelInboundJob = {
      tenant_uuid: tenantId,
      channel_uuid: channelId,
      content_type: 'message/rfc822',
      raw_body: '\u0000\u0001 not mail',
      received_at: new Date().toISOString(),
    };
    expect(await processInbound(deps, junk)).toMatchObject({ messages: 0 });
  });
});
