import { expect, test } from '@playwright/test';
import { demo, signedInPage, takeAndOpen } from './helpers';

// A Telegram channel end to end against the stack's Telegram Bot API simulator (E2E_PORT + 4):
// the admin creates the channel in the channels admin screen (Settings > Workspace), a Telegram user
// writes to the bot, an agent answers from the workstation, the bot sends it.
// A bot answers one channel. The demo "Telegram" channel holds the demo bot, so the
// form refuses its token (409, nothing stored, the bot's webhook untouched); the admin connects a
// second bot of the same Bot API (the simulator serves both, each with its own token and webhook).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BOT_API = `http://127.0.0.1:${Number(process.env.DEMO_TELEGRAM_PORT ?? PORT + 4)}`;
const DEMO_BOT_TOKEN = '7000000001:AAdemo-atende-telegram-bot-token';
const BOT_ID = 7000000002;
const BOT_TOKEN = `${BOT_ID}:AAdemo-atende-telegram-second-bot-token`;
/** The seeded demo channel, where the demo bot's webhook points. */
const DEMO_CHANNEL_ID = '7e1e9a00-0000-4000-8000-000000004013';

interface Sent {
  botId: number;
  method: string;
  chatId: string;
  text: string | null;
}

test('an admin creates a Telegram channel, a Telegram user writes, an agent answers and the user receives it', async ({
  browser,
  request,
}) => {
  const admin = await signedInPage(browser, demo('admin'));
  // The demo WhatsApp channel's sector is one the demo agents serve.
  const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as {
    data: { entry_point: { uuid: string; name: string } | null }[];
  };
  const sector = whatsapp.data[0]?.entry_point?.uuid;
  const sectorName = whatsapp.data[0]?.entry_point?.name ?? '';
  expect(sector).toBeDefined();

  // The channels admin screen: Telegram asks for its bot token only.
  await admin.goto('/admin/settings/workspace');
  await admin.getByRole('button', { name: 'New channel' }).click();
  const modal = admin.getByRole('dialog', { name: 'New channel' });
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await admin.getByRole('option', { name: 'Telegram' }).click();
  await modal.getByRole('textbox', { name: 'Name' }).fill('Telegram E2E');
  await modal.getByLabel('Bot token').fill(DEMO_BOT_TOKEN);
  await modal.getByRole('textbox', { name: 'API address' }).fill(BOT_API);
  await modal.getByRole('textbox', { name: 'Entry point' }).click();
  await admin.getByRole('option', { name: sectorName, exact: true }).click();
  // The demo bot already answers the demo channel: refused on the token field, nothing stored, and
  // its webhook (setWebhook comes after the check) still points at the demo channel.
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('This page, account, number or bot is already connected to another channel')).toBeVisible();
  await expect(modal.getByLabel('Bot token')).toHaveAccessibleDescription(/already connected to another channel/);
  const names = async () =>
    ((await (await admin.request.get('/api/v1/channels?type=telegram&_limit=0')).json()) as { data: { name: string }[] }).data.map(
      (c) => c.name,
    );
  expect(await names()).not.toContain('Telegram E2E');
  const webhookOf = async (botId?: number) =>
    (
      (await (await request.get(`${BOT_API}/_simulator/webhook${botId ? `?bot_id=${botId}` : ''}`)).json()) as {
        webhook: { url: string } | null;
      }
    ).webhook;
  expect((await webhookOf())?.url).toMatch(new RegExp(`/api/v1/channels/${DEMO_CHANNEL_ID}/webhook$`));

  // A free bot id with a wrong token is refused by the Bot API, nothing stored.
  await modal.getByLabel('Bot token').fill(`${BOT_ID}:AAwrong`);
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('The provider refused this token')).toBeVisible();
  expect(await names()).not.toContain('Telegram E2E');
  await modal.getByLabel('Bot token').fill(BOT_TOKEN);
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('The channel Telegram E2E was created.')).toBeVisible();
  const listed = (await (await admin.request.get('/api/v1/channels?type=telegram&_limit=0')).json()) as {
    data: { uuid: string; name: string; webhook_url: string; entry_point: { uuid: string } | null }[];
  };
  const channel = listed.data.find((c) => c.name === 'Telegram E2E')!;
  expect(channel.entry_point?.uuid).toBe(sector);
  await expect(modal.getByText(channel.webhook_url)).toBeVisible();
  // setWebhook pointed the second bot at the new channel; the demo bot still answers the demo channel.
  expect((await webhookOf(BOT_ID))?.url).toBe(channel.webhook_url);
  expect((await webhookOf())?.url).toMatch(new RegExp(`/api/v1/channels/${DEMO_CHANNEL_ID}/webhook$`));

  // A Telegram user (no phone number) writes to the second bot.
  const userId = 800_000_000 + (Date.now() % 100_000_000);
  const name = `Tânia ${userId}`;
  const wrote = await request.post(`${BOT_API}/_simulator/inbound`, {
    data: {
      bot_id: BOT_ID,
      from: { id: userId, firstName: 'Tânia', lastName: String(userId), username: `tania${userId}` },
      text: 'Oi! Vocês entregam no sábado?',
    },
  });
  expect(wrote.ok()).toBe(true);

  const agent = await signedInPage(browser, demo('agent'));
  const { chat: mine, messages } = await takeAndOpen(agent, name);
  expect(mine.channel.uuid).toBe(channel.uuid);
  await expect(messages.getByText('Oi! Vocês entregam no sábado?')).toBeVisible();

  // The composer counts against Telegram's 4096 characters.
  const composer = agent.getByRole('textbox', { name: 'Message' });
  const answer = 'Entregamos sim, das 9h às 13h.';
  await composer.fill(answer);
  await expect(agent.getByTestId('composer-limit')).toHaveText(`${4096 - answer.length} characters left`);
  await composer.press('Enter');
  const reply = messages.getByTestId('message').filter({ hasText: answer });
  await expect(reply.getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

  // The second bot sent it to the user's chat.
  const sent = (await (await request.get(`${BOT_API}/_simulator/sent`)).json()) as { sent: Sent[] };
  expect(sent.sent).toContainEqual(expect.objectContaining({ botId: BOT_ID, method: 'sendMessage', chatId: String(userId), text: answer }));
});
