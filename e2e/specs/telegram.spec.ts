import { expect, test } from '@playwright/test';
import { demo, signedInPage, takeConversation } from './helpers';

// Issue 15: a Telegram channel end to end against the stack's Telegram Bot API simulator (E2E_PORT + 4):
// the admin creates the channel in the channels admin screen (Settings > Workspace), a Telegram user
// writes to the bot, an agent answers from the workstation, the bot sends it.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BOT_API = `http://127.0.0.1:${Number(process.env.DEMO_TELEGRAM_PORT ?? PORT + 4)}`;
const BOT_TOKEN = '7000000001:AAdemo-atende-telegram-bot-token';

interface Sent {
  method: string;
  chatId: string;
  text: string | null;
}

test('an admin creates a Telegram channel, a Telegram user writes, an agent answers and the user receives it', async ({ browser, request }) => {
  const admin = await signedInPage(browser, demo('admin'));
  // The demo WhatsApp channel's sector is one the demo agents serve.
  const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as { data: { entry_point: { uuid: string; name: string } | null }[] };
  const sector = whatsapp.data[0]?.entry_point?.uuid;
  const sectorName = whatsapp.data[0]?.entry_point?.name ?? '';
  expect(sector).toBeDefined();

  // The channels admin screen: Telegram asks for its bot token only; a wrong one is refused, nothing stored.
  await admin.goto('/admin/settings/workspace');
  await admin.getByRole('button', { name: 'New channel' }).click();
  const modal = admin.getByRole('dialog', { name: 'New channel' });
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await admin.getByRole('option', { name: 'Telegram' }).click();
  await modal.getByRole('textbox', { name: 'Name' }).fill('Telegram E2E');
  await modal.getByLabel('Bot token').fill('7000000001:AAwrong');
  await modal.getByRole('textbox', { name: 'API address' }).fill(BOT_API);
  await modal.getByRole('textbox', { name: 'Entry point' }).click();
  await admin.getByRole('option', { name: sectorName, exact: true }).click();
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('The provider refused this token')).toBeVisible();
  await modal.getByLabel('Bot token').fill(BOT_TOKEN);
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('The channel Telegram E2E was created.')).toBeVisible();
  const listed = (await (await admin.request.get('/api/v1/channels?type=telegram&_limit=0')).json()) as { data: { uuid: string; name: string; webhook_url: string; entry_point: { uuid: string } | null }[] };
  const channel = listed.data.find((c) => c.name === 'Telegram E2E')!;
  expect(channel.entry_point?.uuid).toBe(sector);
  await expect(modal.getByText(channel.webhook_url)).toBeVisible();
  // setWebhook pointed the bot at the new channel.
  const hook = (await (await request.get(`${BOT_API}/_simulator/webhook`)).json()) as { webhook: { url: string } | null };
  expect(hook.webhook?.url).toBe(channel.webhook_url);

  // A Telegram user (no phone number) writes to the bot.
  const userId = 800_000_000 + (Date.now() % 100_000_000);
  const name = `Tânia ${userId}`;
  const wrote = await request.post(`${BOT_API}/_simulator/inbound`, { data: { from: { id: userId, firstName: 'Tânia', lastName: String(userId), username: `tania${userId}` }, text: 'Oi! Vocês entregam no sábado?' } });
  expect(wrote.ok()).toBe(true);

  const agent = await signedInPage(browser, demo('agent'));
  let mine: Awaited<ReturnType<typeof takeConversation>> | undefined;
  await expect(async () => {
    mine = await takeConversation(agent, (chat) => chat.contact.name === name);
  }).toPass({ timeout: 20_000 });
  expect(mine!.channel.uuid).toBe(channel.uuid);
  await agent.reload();
  await agent.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(name) }).click();
  const messages = agent.getByRole('log', { name: 'Messages' });
  await expect(messages.getByText('Oi! Vocês entregam no sábado?')).toBeVisible();

  // The composer counts against Telegram's 4096 characters.
  const composer = agent.getByRole('textbox', { name: 'Message' });
  const answer = 'Entregamos sim, das 9h às 13h.';
  await composer.fill(answer);
  await expect(agent.getByTestId('composer-limit')).toHaveText(`${4096 - answer.length} characters left`);
  await composer.press('Enter');
  const reply = messages.getByTestId('message').filter({ hasText: answer });
  await expect(reply.getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

  // The bot sent it to the user's chat.
  const sent = (await (await request.get(`${BOT_API}/_simulator/sent`)).json()) as { sent: Sent[] };
  expect(sent.sent).toContainEqual(expect.objectContaining({ method: 'sendMessage', chatId: String(userId), text: answer }));
});
