import { expect, test } from '@playwright/test';
import { startDovecot } from '@atende/simulators/dovecot';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { demo, finishAgentConversations, signedInPage, takeAndOpen } from './helpers';

// An e-mail channel that reads the team's own mailbox. The spec runs the mailbox: a real IMAP
// server (dovecot: `pnpm test` and .ci/run install it) and an SMTP server for the replies. The admin fills the
// channel's "Mailbox (IMAP)" section; mail delivered to the INBOX opens a conversation (the worker
// polls every EMAIL_IMAP_POLL_MS, 1 s in the e2e stack), the agent's answer leaves by SMTP and is
// kept in the mailbox's Sent folder.
// Specs after this one expect the agent to hold no chats: finish what the test accepted.
test.afterEach(({ playwright, baseURL }) => finishAgentConversations(playwright, baseURL));

test('an admin connects the support mailbox by IMAP, its mail opens a conversation, and the answer is kept in Sent', async ({
  browser,
}) => {
  const suffix = Date.now() % 100_000;
  const address = `caixa${suffix}@loja.test`;
  const password = 'e2e-mailbox-pass';
  const imap = await startDovecot({ users: [{ name: address, password }] });
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.password === password ? callback(null, { user: auth.username }) : callback(new Error('Invalid login')),
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;

  try {
    const admin = await signedInPage(browser, demo('admin'));
    await admin.goto('/admin/settings/workspace');
    await admin.getByRole('button', { name: 'New channel' }).click();
    const modal = admin.getByRole('dialog', { name: 'New channel' });
    await modal.getByRole('textbox', { name: 'Type' }).click();
    await admin.getByRole('option', { name: 'E-mail' }).click();
    await modal.getByRole('textbox', { name: 'Name' }).fill(`Caixa ${suffix}`);
    await modal.getByRole('textbox', { name: 'E-mail address' }).fill(address);
    await modal.getByRole('textbox', { name: 'SMTP server' }).fill('127.0.0.1');
    await modal.getByRole('textbox', { name: 'SMTP port' }).fill(String(smtpPort));
    await modal.getByLabel('SMTP password').fill(password);
    await expect(modal.getByRole('separator').filter({ hasText: 'Mailbox (IMAP)' })).toBeVisible();
    await modal.getByRole('textbox', { name: 'IMAP server' }).fill('127.0.0.1');
    await modal.getByRole('textbox', { name: 'IMAP port' }).fill(String(imap.port));
    // IMAP starts over TLS (port 993); this server speaks plain IMAP.
    const imapTls = modal.getByRole('switch', { name: 'IMAP over TLS' });
    await expect(imapTls).toBeChecked();
    await imapTls.uncheck({ force: true });
    await modal.getByRole('textbox', { name: 'Sent folder' }).fill('Sent');
    await modal.getByRole('button', { name: 'Create channel' }).click();
    await expect(modal.getByText(`The channel Caixa ${suffix} was created.`)).toBeVisible();

    // The demo agents serve the demo WhatsApp channel's sector: the new channel enters there.
    const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as {
      data: { entry_point: { uuid: string } | null }[];
    };
    const channels = (await (await admin.request.get('/api/v1/channels?type=email&_limit=0')).json()) as {
      data: { uuid: string; name: string; settings: Record<string, string> }[];
    };
    const channel = channels.data.find((c) => c.name === `Caixa ${suffix}`)!;
    expect(channel.settings).toMatchObject({
      imap_host: '127.0.0.1',
      imap_port: String(imap.port),
      imap_secure: 'false',
      sent_mailbox: 'Sent',
    });
    expect(
      (await admin.request.patch(`/api/v1/channels/${channel.uuid}`, { data: { entry_point: whatsapp.data[0]!.entry_point!.uuid } })).ok(),
    ).toBe(true);

    // A customer's mail reaches the mailbox (delivered there as any mail server would).
    const name = `Bia ${suffix}`;
    const messageId = `<imap-e2e-${suffix}@cliente.test>`;
    await imap.append(
      address,
      'INBOX',
      [
        `From: "${name}" <bia${suffix}@cliente.test>`,
        `To: ${address}`,
        'Subject: Troca de tamanho',
        `Message-ID: ${messageId}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Posso trocar a camiseta por um tamanho maior?',
        '',
      ].join('\r\n'),
    );

    const agent = await signedInPage(browser, demo('agent'));
    const { chat, messages } = await takeAndOpen(agent, name);
    expect(chat.channel.uuid).toBe(channel.uuid);
    await expect(messages.getByText('Posso trocar a camiseta por um tamanho maior?')).toBeVisible();
    await expect(messages.getByTestId('email-subject')).toHaveText('Subject: Troca de tamanho');
    // Taken from the mailbox: marked read there.
    await expect.poll(async () => (await imap.messages(address, 'INBOX'))[0]?.flags ?? []).toContain('\\Seen');

    const answer = 'Pode sim! Envie pelo correio.';
    const composer = agent.getByRole('textbox', { name: 'Message' });
    await composer.fill(answer);
    await composer.press('Enter');
    await expect(messages.getByTestId('message').filter({ hasText: answer }).getByLabel('Sent')).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(received[0]!.inReplyTo).toBe(messageId);
    const sent = await imap.messages(address, 'Sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.source).toContain(`Message-ID: ${received[0]!.messageId}`);
    expect(sent[0]!.source).toContain('Subject: Re: Troca de tamanho');
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await imap.close();
  }
});
