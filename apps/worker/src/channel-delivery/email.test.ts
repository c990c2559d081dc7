import { randomUUID } from 'node:crypto';
import { channelAdapters, encryptCredentials, outboundClient } from '@atende/channels';
import { startEmailSimulator, type EmailSimulator } from '@atende/simulators/email';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDeliveryHarness } from './harness';
import { deliverMessage } from './processor';

/**
 * Agent messages out by SMTP to a real SMTP server the test starts on 127.0.0.1:
 * threading headers, subject, attachments, the server's refusals on the message (4xx retried,
 * 5xx failed with its reason, then the agent's retry), and the outbound address policy.
 */
const h = useDeliveryHarness({ name: 'Mail out', adapters: { email: { timeoutMs: 2000 } } });
let sim: EmailSimulator;
let channelId: string;
let contactId: string;
let conversationId: string;

beforeAll(async () => {
  sim = await startEmailSimulator({ username: 'suporte@loja.test', password: 'smtp-pass' });
  ({ channelId, contactId, conversationId } = await h.openConversation({
    channel: {
      name: 'E-mail',
      type: 'email',
      config: { smtp_host: '127.0.0.1', smtp_port: String(sim.port), smtp_secure: 'false', from_address: 'suporte@loja.test' },
      credentials: { password: 'smtp-pass', webhook_secret: 's' },
    },
    contact: { name: 'Ana', email: 'ana@cliente.test' },
    identifier: 'ana@cliente.test',
  }));
  // The contact's mail that opened the conversation, as channel-inbound stores it.
  await h.db.message.create({
    data: {
      id: randomUUID(),
      tenantId: h.tenantId,
      conversationId,
      author: 'CONTACT',
      contactId,
      content: 'Meu pedido não chegou.',
      state: 'sent',
      externalId: '<first@cliente.test>',
      interactiveContent: { type: 'email', subject: 'Pedido 123', message_id: '<first@cliente.test>', references: [] },
      createdAt: new Date(Date.now() - 60_000),
    },
  });
});
afterAll(() => sim?.close());
beforeEach(() => sim.reset());

const agentMessage = (content: string, annexId: string | null = null, voice = false) =>
  h.agentMessage(conversationId, content, annexId, voice);
const deliver = (id: string, finalAttempt = false) => h.deliver(id, finalAttempt);

describe('channel delivery: e-mail', () => {
  it('sends the answer in the contact’s thread: our Message-ID, In-Reply-To and References, "Re: <subject>", text and HTML', async () => {
    const id = await agentMessage('Olá, Ana!\nJá estamos verificando <o pedido>.');
    const result = await deliver(id);
    expect(result).toEqual({ outcome: 'sent', externalId: `<${id}@loja.test>` });
    const [mail] = sim.sent();
    expect(mail).toMatchObject({
      envelopeFrom: 'suporte@loja.test',
      envelopeTo: ['ana@cliente.test'],
      subject: 'Re: Pedido 123',
      messageId: `<${id}@loja.test>`,
      inReplyTo: '<first@cliente.test>',
      references: ['<first@cliente.test>'],
      text: 'Olá, Ana!\nJá estamos verificando <o pedido>.',
    });
    expect(mail!.html).toContain('Já estamos verificando &lt;o pedido&gt;.');
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: 'sent',
      status: null,
      externalId: `<${id}@loja.test>`,
    });
  });

  it('threads the next answer after our own (References carry both), and attaches a stored file', async () => {
    const bytes = Buffer.from('%PDF-1.4 orçamento');
    const key = `${h.tenantId}/${randomUUID()}`;
    await h.storage.put(key, bytes, { contentType: 'application/pdf', size: bytes.length });
    const file = await h.db.storedFile.create({
      data: {
        tenantId: h.tenantId,
        originalFilename: 'orcamento.pdf',
        contentType: 'application/pdf',
        size: bytes.length,
        service: h.storage.service,
        storageKey: key,
      },
    });
    const previous = await h.db.message.findFirstOrThrow({ where: { conversationId, author: 'USER', state: 'sent' } });
    const id = await agentMessage('Segue o orçamento', file.id);
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    const [mail] = sim.sent();
    expect(mail).toMatchObject({
      subject: 'Re: Pedido 123',
      inReplyTo: previous.externalId,
      references: ['<first@cliente.test>', previous.externalId],
    });
    expect(mail!.attachments).toEqual([
      expect.objectContaining({ filename: 'orcamento.pdf', contentType: 'application/pdf', content: bytes }),
    ]);
  });

  it('answers one mail in particular (a reply to it) in that mail’s own thread and subject, not the latest one’s', async () => {
    // The contact wrote again about something else; the agent answers the first mail.
    await h.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: h.tenantId,
        conversationId,
        author: 'CONTACT',
        contactId,
        content: 'Outra coisa: a nota fiscal.',
        state: 'sent',
        externalId: '<other@cliente.test>',
        interactiveContent: { type: 'email', subject: 'Nota fiscal', message_id: '<other@cliente.test>', references: [] },
      },
    });
    const first = await h.db.message.findFirstOrThrow({ where: { externalId: '<first@cliente.test>' } });
    const id = await agentMessage('Sobre o pedido: sai hoje.');
    await h.db.message.update({ where: { id }, data: { replyToId: first.id } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    const [mail] = sim.sent();
    expect(mail).toMatchObject({ subject: 'Re: Pedido 123', inReplyTo: '<first@cliente.test>', references: ['<first@cliente.test>'] });

    // Without a reply, the answer follows the latest mail.
    const latest = await agentMessage('E a nota segue em anexo.');
    expect(await deliver(latest)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()[1]).toMatchObject({ subject: 'Re: Nota fiscal' });
  });

  it('shows a 5xx refusal on the message as failed with the server’s reason, and the agent’s retry delivers it', async () => {
    sim.failNext(1, 550, 'Mailbox unavailable');
    const id = await agentMessage('Oi de novo');
    const result = await deliver(id);
    expect(result).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('550 Mailbox unavailable') });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: 'pending',
      status: 'failed',
      errorMessage: expect.stringContaining('550 Mailbox unavailable'),
    });
    // The retry sets the message sending again and queues it.
    await h.db.message.update({ where: { id }, data: { status: 'sending' } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()).toHaveLength(1);
  });

  it('retries a 4xx answer (transient) and fails only after the last attempt', async () => {
    sim.failNext(2, 451, 'Greylisted, try later');
    const id = await agentMessage('Tudo certo?');
    await expect(deliver(id)).rejects.toMatchObject({ kind: 'transient' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'sending' });
    await expect(deliver(id, true)).rejects.toMatchObject({ kind: 'transient' });
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringContaining('451'),
    });
  });

  it('fails permanently on a refused login, and on an SMTP host the address policy refuses (nothing connects)', async () => {
    const tenant = await h.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    await h.db.channel.update({
      where: { id: channelId },
      data: { credentialsEncrypted: encryptCredentials({ password: 'wrong', webhook_secret: 's' }, h.secretsKey) },
    });
    const id = await agentMessage('Login errado');
    expect(await deliver(id)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('SMTP') });
    await h.db.channel.update({ where: { id: channelId }, data: { credentialsEncrypted: tenant.credentialsEncrypted } });
    const strict = { ...h.deps, adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '' }) }) };
    const blocked = await agentMessage('Endereço privado');
    const result = await deliverMessage(strict, { tenant_uuid: h.tenantId, message_uuid: blocked }, { finalAttempt: false });
    expect(result).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('refused') });
    expect(sim.sent()).toEqual([]);
  });

  it('sends a new e-mail an agent started under its own subject, without "Re:"', async () => {
    const id = await agentMessage('Temos uma proposta para você.');
    await h.db.message.update({ where: { id }, data: { interactiveContent: { type: 'email', subject: 'Sua proposta de renovação' } } });
    expect(await deliver(id)).toMatchObject({ outcome: 'sent' });
    const [mail] = sim.sent();
    expect(mail).toMatchObject({
      subject: 'Sua proposta de renovação',
      envelopeTo: ['ana@cliente.test'],
      text: 'Temos uma proposta para você.',
    });
    // The next answer threads under that subject as a reply.
    const next = await agentMessage('Ficou alguma dúvida?');
    expect(await deliver(next)).toMatchObject({ outcome: 'sent' });
    expect(sim.sent()[1]).toMatchObject({ subject: 'Re: Sua proposta de renovação' });
  });
});
