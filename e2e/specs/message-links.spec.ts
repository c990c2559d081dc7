import { expect, test } from '@playwright/test';
import { demo, demoApiChannel, sendContactMessage, signedInPage, takeConversation } from './helpers';

// The message list loads the newest 50 messages; a quote of a message
// not loaded yet, and a report link's #messageId, reach back to it (GET .../messages?until=), scroll
// to it and highlight it; a link to a message that is gone says so.
const CHANNEL_TOKEN = 'demo-api-channel-token';
const TOTAL = 125;

test('a quote and a history link reach a message far older than the loaded page', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const agent = await signedInPage(browser, demo('agent'));
  const channel = await demoApiChannel(agent.request);
  const phone = `+55118${String(Date.now()).slice(-8)}`;
  const write = (n: number) =>
    sendContactMessage(request, channel, CHANNEL_TOKEN, {
      contact: { phone, name: `Longa ${phone.slice(-4)}` },
      message: { id: `e2e-links-${phone}-${n}`, content: `Mensagem ${n}` },
    });
  await write(1);
  const conversation = await takeConversation(agent, (chat) => chat.contact.phone_number === phone);
  for (let n = 2; n <= TOTAL; n++) await write(n);

  type Row = { uuid: string; message: string };
  let all: Row[] = [];
  await expect(async () => {
    const res = await agent.request.get(`/api/v1/conversations/${conversation.uuid}/messages?_limit=200`);
    all = ((await res.json()) as { data: (Row & { author: string })[] }).data.filter((m) => m.author === 'CONTACT');
    expect(all).toHaveLength(TOTAL);
  }).toPass({ timeout: 60_000 });
  const third = all.find((m) => m.message === 'Mensagem 3')!;
  const fifth = all.find((m) => m.message === 'Mensagem 5')!;
  // A recent reply quotes message #3.
  const reply = await agent.request.post(`/api/v1/conversations/${conversation.uuid}/messages`, {
    data: { content: 'Sobre a sua terceira mensagem', reply_to_uuid: third.uuid },
  });
  expect(reply.status()).toBe(201);

  await agent.reload();
  await agent
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(conversation.contact.name) })
    .click();
  // The chat panel's code loads on first use: slow on a busy machine.
  await expect(agent.getByTestId('chat-contact-name')).toHaveText(conversation.contact.name, { timeout: 45_000 });
  const log = agent.getByRole('log', { name: 'Messages' });
  const replyRow = log.getByTestId('message').filter({ hasText: 'Sobre a sua terceira mensagem' });
  await expect(replyRow).toBeVisible();
  // Only the newest page is loaded: message #3 is not.
  await expect(log.getByText('Mensagem 3', { exact: true })).toHaveCount(0);
  await replyRow.getByRole('button', { name: 'Go to the replied message' }).click();
  const row3 = agent.locator(`#message-${third.uuid}`);
  await expect(row3).toBeInViewport();
  await expect(row3).toHaveAttribute('data-highlighted', 'true');
  await expect(row3).toContainText('Mensagem 3');
  await expect(row3).not.toHaveAttribute('data-highlighted', 'true', { timeout: 5000 });

  // A report link with #<old message> opens the history view scrolled to it.
  const supervisor = await signedInPage(browser, demo('supervisor'));
  await supervisor.goto(`/chat-history/reports/${conversation.uuid}#${fifth.uuid}`);
  const row5 = supervisor.locator(`#message-${fifth.uuid}`);
  await expect(row5).toBeInViewport();
  await expect(row5).toContainText('Mensagem 5');
  await expect(supervisor.getByRole('log', { name: 'Messages' }).getByText(`Mensagem ${TOTAL}`, { exact: true })).not.toBeInViewport();

  // A link to a message that does not exist says so.
  await supervisor.goto(`/chat-history/reports/${conversation.uuid}#00000000-0000-4000-8000-000000000000`);
  await expect(supervisor.getByText('This message no longer exists')).toBeVisible();
});
