import { expect, test } from '@playwright/test';
import { demo, FAKE_MICROPHONE_LAUNCH, signedInPage, takeAndOpen } from './helpers';
import { metaContactWrites } from './meta-contact';

// Voice notes as each provider plays them: Chromium records Opus in WebM; the composer sends it as
// Ogg/Opus, which Telegram takes with sendVoice (shown as a voice note, not a file). Instagram takes no
// such audio: its composer offers no recording at all.
test.use({ launchOptions: FAKE_MICROPHONE_LAUNCH });

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BOT_API = `http://127.0.0.1:${Number(process.env.DEMO_TELEGRAM_PORT ?? PORT + 4)}`;
const INSTAGRAM = `http://127.0.0.1:${Number(process.env.DEMO_INSTAGRAM_PORT ?? PORT + 9)}`;
const DEMO_TELEGRAM_CHANNEL = '7e1e9a00-0000-4000-8000-000000004013';
const DEMO_INSTAGRAM_CHANNEL = '3e55e9e0-0000-4000-8000-000000004018';

interface SentCall {
  method: string;
  chatId: string;
  file?: { filename: string; contentType: string; size: number } | string | null;
}

test('a voice note recorded for a Telegram contact goes out with sendVoice as Ogg/Opus', async ({ browser, request }) => {
  const userId = 810_000_000 + (Date.now() % 100_000_000);
  const name = `Vera ${userId}`;
  const wrote = await request.post(`${BOT_API}/_simulator/inbound`, {
    data: { from: { id: userId, firstName: 'Vera', lastName: String(userId) }, text: 'Pode mandar um áudio?' },
  });
  expect(wrote.ok()).toBe(true);

  const agent = await signedInPage(browser, demo('agent'));
  await agent.context().grantPermissions(['microphone']);
  const { chat: mine, messages } = await takeAndOpen(agent, name);
  expect(mine.channel.uuid).toBe(DEMO_TELEGRAM_CHANNEL);
  await expect(messages.getByText('Pode mandar um áudio?')).toBeVisible();

  await agent.getByRole('button', { name: 'Record voice' }).click();
  const timer = agent.getByRole('timer', { name: 'Recording time' });
  await expect(timer).toHaveText(/^00:0[1-9]$/, { timeout: 5_000 });
  await agent.getByRole('button', { name: 'Send recording' }).click();
  await expect(timer).toHaveCount(0);
  const note = messages.getByTestId('message').filter({ has: agent.locator('audio') });
  await expect(note.getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

  // The bot sent a voice note in Ogg to the user's chat, and the desk keeps the same file.
  const sent = ((await (await request.get(`${BOT_API}/_simulator/sent`)).json()) as { sent: SentCall[] }).sent;
  const voice = sent.filter((s) => s.chatId === String(userId));
  expect(voice).toHaveLength(1);
  expect(voice[0]).toMatchObject({ method: 'sendVoice', file: { contentType: 'audio/ogg' } });
  const stored = (await (await agent.request.get(`/api/v1/conversations/${mine.uuid}/messages`)).json()) as {
    data: { voice: boolean; annex: { content_type: string } | null }[];
  };
  expect(stored.data.filter((m) => m.voice).map((m) => m.annex?.content_type)).toEqual(['audio/ogg']);
  await agent.context().close();
});

test('an Instagram conversation offers no recording; an internal note there still can', async ({ browser, request }) => {
  const psid = String(7_400_000_000_000 + (Date.now() % 1_000_000_000));
  const { agent } = await metaContactWrites(
    browser,
    request,
    INSTAGRAM,
    { psid, firstName: 'Ísis', lastName: String(Date.now() % 100_000), text: 'Oi pelo Instagram' },
    DEMO_INSTAGRAM_CHANNEL,
  );
  const record = agent.getByRole('button', { name: 'Record voice' });
  await expect(record).toBeDisabled();
  await record.hover({ force: true });
  await expect(agent.getByText('This channel does not take voice messages')).toBeVisible();
  await agent.getByRole('switch', { name: 'Internal note', exact: true }).check();
  await expect(record).toBeEnabled();
  await agent.context().close();
});
