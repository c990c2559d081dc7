import { randomUUID } from 'node:crypto';
import { startDovecot, type DovecotServer } from '@atende/simulators/dovecot';
import { startEmailSimulator, type EmailSimulator } from '@atende/simulators/email';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDeliveryHarness } from './harness';

/**
 * An e-mail channel with a sent_mailbox: the agent's reply goes out through the
 * mailbox's SMTP server (the SMTP simulator) and the same message is appended over IMAP to that
 * folder of the mailbox (a real dovecot the test starts), so the team's mail client shows it.
 */
const USER = 'suporte@loja.test';
const PASSWORD = 'mailbox-pass';
const warnings: { details: Record<string, unknown>; message: string }[] = [];
const h = useDeliveryHarness({
  name: 'Mail sent folder',
  adapters: {
    email: {
      timeoutMs: 5000,
      log: { warn: (details, message) => warnings.push({ details: details as Record<string, unknown>, message }) },
    },
  },
});
let smtp: EmailSimulator;
let imap: DovecotServer;

beforeAll(async () => {
  smtp = await startEmailSimulator({ username: USER, password: PASSWORD });
  imap = await startDovecot({ users: [{ name: USER, password: PASSWORD }] });
});
afterAll(async () => {
  await smtp?.close();
  await imap?.close();
});

let channelId = '';
let conversationId = '';
/** The channel's sent_mailbox, as an admin would change it. */
const sendTo = (folder: string) =>
  h.db.channel.update({
    where: { id: channelId },
    data: {
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: String(smtp.port),
        smtp_secure: 'false',
        from_address: USER,
        imap_host: '127.0.0.1',
        imap_port: String(imap.port),
        imap_secure: 'false',
        sent_mailbox: folder,
      },
    },
  });

describe('channel delivery: e-mail replies kept in the Sent folder', () => {
  beforeAll(async () => {
    ({ channelId, conversationId } = await h.openConversation({
      channel: { name: 'E-mail', type: 'email', config: {}, credentials: { password: PASSWORD, webhook_secret: 's' } },
      contact: { name: 'Ana', email: 'ana@cliente.test' },
      identifier: 'ana@cliente.test',
    }));
    await sendTo('Sent');
    // The contact's mail that opened the conversation, as channel-inbound stores it.
    const contactId = (await h.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).contactId;
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

  it('appends the reply, as sent by SMTP, to the sent_mailbox, marked read', async () => {
    const id = await h.agentMessage(conversationId, 'Olá, Ana! Já estamos verificando.');
    expect(await h.deliver(id)).toEqual({ outcome: 'sent', externalId: `<${id}@loja.test>` });
    const [mail] = smtp.sent();
    expect(mail).toMatchObject({ messageId: `<${id}@loja.test>`, subject: 'Re: Pedido 123', envelopeTo: ['ana@cliente.test'] });
    const sent = await imap.messages(USER, 'Sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.flags).toContain('\\Seen');
    expect(sent[0]!.source).toContain(`Message-ID: <${id}@loja.test>`);
    expect(sent[0]!.source).toContain('Subject: Re: Pedido 123');
    expect(sent[0]!.source).toContain('In-Reply-To: <first@cliente.test>');
    expect(warnings).toEqual([]);
  });

  it('still counts the reply as sent when the folder cannot take it, saying why', async () => {
    smtp.reset();
    await sendTo('No such folder');
    const id = await h.agentMessage(conversationId, 'Mais uma coisa');
    expect(await h.deliver(id)).toMatchObject({ outcome: 'sent' });
    expect(smtp.sent()).toHaveLength(1);
    expect(warnings).toEqual([
      {
        message: 'e-mail reply sent, but not appended to the Sent folder',
        details: expect.objectContaining({
          messageId: `<${id}@loja.test>`,
          reason: expect.stringMatching(/^IMAP: .*(doesn't exist|No such)/i),
        }),
      },
    ]);
    expect(await h.db.message.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'sent' });
    expect(await imap.messages(USER, 'Sent')).toHaveLength(1);
  });
});
