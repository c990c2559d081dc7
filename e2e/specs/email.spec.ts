import { expect, test } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { demo, finishAgentConversations, signedInPage, startFromPhonebook, takeAndOpen } from './helpers';

// An e-mail channel end to end. The spec runs the mailbox's SMTP server itself
// (smtp-server on 127.0.0.1); the admin creates the channel in Settings > Workspace > New channel,
// a contact mails its forwarding address (the worker's inbound listener, E2E_PORT + 8), an agent
// answers from the workstation, and the SMTP server receives the reply in the contact's thread.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const INBOUND_PORT = Number(process.env.EMAIL_INBOUND_SMTP_PORT ?? PORT + 8);

// Specs after this one expect the agent to hold no chats: finish what the test accepted and started.
test.afterEach(({ playwright, baseURL }) => finishAgentConversations(playwright, baseURL));

test('an admin creates an e-mail channel, a contact mails it, an agent answers and the reply leaves in the thread', async ({ browser }) => {
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.password === 'e2e-smtp-pass' ? callback(null, { user: auth.username }) : callback(new Error('Invalid login')),
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
    const suffix = Date.now() % 100_000;
    await admin.goto('/admin/settings/workspace');
    await admin.getByRole('button', { name: 'New channel' }).click();
    const modal = admin.getByRole('dialog', { name: 'New channel' });
    await modal.getByRole('textbox', { name: 'Type' }).click();
    await admin.getByRole('option', { name: 'E-mail' }).click();
    await modal.getByRole('textbox', { name: 'Name' }).fill(`Suporte ${suffix}`);
    await modal.getByRole('textbox', { name: 'E-mail address' }).fill(`suporte${suffix}@loja.test`);
    await modal.getByRole('textbox', { name: 'SMTP server' }).fill('127.0.0.1');
    await modal.getByRole('textbox', { name: 'SMTP port' }).fill(String(smtpPort));
    // Port 465 would need TLS from the start; this server takes plain SMTP, so the switch stays off.
    await expect(modal.getByRole('switch', { name: 'TLS from the start' })).not.toBeChecked();
    await modal.getByLabel('SMTP password').fill('e2e-smtp-pass');
    await modal.getByRole('button', { name: 'Create channel' }).click();
    await expect(modal.getByText(`The channel Suporte ${suffix} was created.`)).toBeVisible();
    await expect(modal.getByText('Forwarding address', { exact: true })).toBeVisible();
    const forwarding = (await modal.getByText(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{24}@/).textContent())!.trim();
    // The forwarding address is not only for now: the channel's settings show it again to its admin.
    await modal.getByRole('button', { name: 'Open channel settings' }).click();
    await expect(admin.getByText(forwarding, { exact: true })).toBeVisible();

    // The demo agents serve the demo WhatsApp channel's sector: the new channel enters there.
    const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as {
      data: { entry_point: { uuid: string } | null }[];
    };
    const channels = (await (await admin.request.get('/api/v1/channels?type=email&_limit=0')).json()) as {
      data: { uuid: string; name: string }[];
    };
    const channel = channels.data.find((c) => c.name === `Suporte ${suffix}`)!;
    expect(
      (await admin.request.patch(`/api/v1/channels/${channel.uuid}`, { data: { entry_point: whatsapp.data[0]!.entry_point!.uuid } })).ok(),
    ).toBe(true);

    // The contact mails the forwarding address.
    const name = `Ana ${suffix}`;
    const messageId = `<e2e-${suffix}@cliente.test>`;
    const contactMailer = nodemailer.createTransport({ host: '127.0.0.1', port: INBOUND_PORT, secure: false, ignoreTLS: true });
    await contactMailer.sendMail({
      from: `"${name}" <ana${suffix}@cliente.test>`,
      to: forwarding,
      subject: 'Pedido atrasado',
      messageId,
      text: 'Meu pedido ainda não chegou.\n\n-- \nAna',
    });

    const agent = await signedInPage(browser, demo('agent'));
    const { chat: mine, messages } = await takeAndOpen(agent, name);
    expect(mine.channel.uuid).toBe(channel.uuid);
    await expect(messages.getByText('Meu pedido ainda não chegou.')).toBeVisible();
    await expect(messages.getByTestId('email-subject')).toHaveText('Subject: Pedido atrasado');

    const answer = 'Olá! Seu pedido sai para entrega hoje.';
    const composer = agent.getByRole('textbox', { name: 'Message' });
    await composer.fill(answer);
    await composer.press('Enter');
    await expect(messages.getByTestId('message').filter({ hasText: answer }).getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const reply = received[0]!;
    expect(reply.subject).toBe('Re: Pedido atrasado');
    expect(reply.inReplyTo).toBe(messageId);
    expect(reply.text?.trim()).toBe(answer);
    expect((Array.isArray(reply.to) ? reply.to[0] : reply.to)?.text).toBe(`ana${suffix}@cliente.test`);

    // A colleague in copy answers our reply: the message joins this chat (the thread's), with who wrote it.
    await contactMailer.sendMail({
      from: `"Carla ${suffix}" <carla${suffix}@cliente.test>`,
      to: forwarding,
      cc: `ana${suffix}@cliente.test`,
      subject: 'Re: Pedido atrasado',
      inReplyTo: reply.messageId,
      references: [messageId, reply.messageId!],
      text: 'Sou colega da Ana: pode entregar na portaria.',
    });
    const colleague = messages.getByTestId('message').filter({ hasText: 'Sou colega da Ana: pode entregar na portaria.' });
    await expect(colleague).toBeVisible({ timeout: 15_000 });
    await expect(colleague.getByTestId('email-from')).toHaveText(`From: Carla ${suffix} <carla${suffix}@cliente.test>`);

    // The composer shows the reply's subject; typing another starts a new thread under it.
    const subjectBox = agent.getByRole('textbox', { name: 'Subject' });
    await expect(subjectBox).toHaveValue('Re: Pedido atrasado');
    await subjectBox.fill('Troca do produto');
    await composer.fill('Sobre a troca: pode devolver na loja.');
    await composer.press('Enter');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    expect(received[1]!.subject).toBe('Troca do produto');
    expect(received[1]!.inReplyTo).toBeUndefined();
    await expect(subjectBox).toHaveValue('Re: Troca do produto');

    // The agent starts a new e-mail from the phonebook: the subject is asked for, and the mail leaves with it.
    const bruno = `Bruno ${suffix}`;
    const created = await agent.request.post('/api/v1/contacts', {
      data: { name: bruno, organization: 'Cliente', email: `bruno${suffix}@cliente.test`, phone1: `(11) 9${String(Date.now()).slice(-8)}` },
    });
    expect(created.status()).toBe(201);
    const start = await startFromPhonebook(agent, bruno, `Suporte ${suffix}`);
    await expect(start.getByText(`bruno${suffix}@cliente.test`)).toBeVisible();
    await start.getByRole('textbox', { name: 'Initial message' }).fill('Olá Bruno, seu contrato vence em breve.');
    await start.getByRole('button', { name: 'Start conversation' }).click();
    await expect(start.getByText('Subject is required')).toBeVisible();
    await start.getByRole('textbox', { name: 'Subject' }).fill('Renovação do contrato');
    await start.getByRole('button', { name: 'Start conversation' }).click();
    await expect(start).toHaveCount(0);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(3);
    expect(received[2]!.subject).toBe('Renovação do contrato');
    expect((Array.isArray(received[2]!.to) ? received[2]!.to[0] : received[2]!.to)?.text).toBe(`bruno${suffix}@cliente.test`);
    expect(received[2]!.text?.trim()).toBe('Olá Bruno, seu contrato vence em breve.');
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
