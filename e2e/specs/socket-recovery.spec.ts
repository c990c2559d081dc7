import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  acceptConversationOf,
  demo,
  demoApiChannel,
  finishAgentConversations,
  sendContactMessage,
  signedInPage,
  signIn,
  takeConversation,
} from './helpers';

// After the api crashes and comes back, the socket reconnects
// without recovering its session (the killed process saved none), so the events sent meanwhile are
// lost; the workstation reloads what it shows instead: the open chat (merged into the messages
// shown), the list and the queue count.
const CHANNEL_TOKEN = 'demo-api-channel-token';
// The chat's first page (apps/web MESSAGE_PAGE_SIZE).
const MESSAGE_PAGE_SIZE = 50;
// start-stack.mjs answers POST /api/restart there: SIGKILL to the api, then a fresh api process.
const STACK_CONTROL = `http://127.0.0.1:${Number(process.env.E2E_CONTROL_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 3)}`;

async function contactWrites(request: APIRequestContext, channel: string, phone: string, content: string, name?: string): Promise<void> {
  await sendContactMessage(request, channel, CHANNEL_TOKEN, {
    contact: { phone, name },
    message: { id: `e2e-recovery-${Date.now()}-${Math.random()}`, content },
  });
}

// Specs after this one expect the agent to hold no chats and the queue as it was.
test.afterEach(({ playwright, baseURL }) => finishAgentConversations(playwright, baseURL));

test('after an api restart the open chat, the list and the queue count catch up without a reload', async ({ page, request }) => {
  // Every socket.io connection of the page passes through here. While `held`, reconnection attempts
  // are turned away, so the page comes back only once the contacts' messages are stored: they are
  // then missed events, not live ones, whatever the reconnection back-off.
  let held = false;
  await page.routeWebSocket(/\/socket\//, (ws) => {
    if (held) void ws.close();
    else ws.connectToServer();
  });
  await signIn(page, demo('agent'));
  await expect(page.getByText('Connected')).toBeVisible();
  const channel = await demoApiChannel(page.request);

  // More messages than the chat's first page holds, so the agent loads the earlier ones.
  const phone = `+55319${String(Date.now()).slice(-8)}`;
  const name = `Recovery ${phone.slice(-4)}`;
  for (let i = 1; i <= MESSAGE_PAGE_SIZE + 1; i++)
    await contactWrites(request, channel, phone, `Mensagem ${String(i).padStart(2, '0')}`, name);
  const mine = await acceptConversationOf(page, phone);
  const chat = page.getByRole('log', { name: 'Messages' });
  const row = page.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(mine.contact.name) });
  await expect(chat.getByText('Mensagem 51', { exact: true })).toBeVisible();
  await chat.getByRole('button', { name: 'Load earlier messages' }).click();
  await expect(chat.getByText('Mensagem 01', { exact: true })).toBeAttached();
  await expect(chat.getByRole('button', { name: 'Load earlier messages' })).toHaveCount(0);
  await expect(page.getByText('Connected')).toBeVisible();
  const waitingBefore = Number((await page.getByTestId('waiting-count').textContent())?.match(/\d+/)?.[0]);

  held = true;
  const restart = await request.post(`${STACK_CONTROL}/api/restart`, { timeout: 70_000 });
  expect(restart.status()).toBe(204);
  // Connecting, or already disconnected if the restart outlasted the 4000 ms time-out.
  await expect(page.getByText(/^(Trying to reconnect|Falha na conexão)$/).first()).toBeVisible();

  // While the page is away: the open chat's contact writes again and a new contact starts waiting.
  await contactWrites(request, channel, phone, 'Ainda está aí?');
  const newcomer = `+55319${String(Date.now() + 1).slice(-8)}`;
  await contactWrites(request, channel, newcomer, 'Olá, preciso de ajuda.', `Recovery ${newcomer.slice(-4)}`);
  await expect(page.getByText('Ainda está aí?')).toHaveCount(0);

  held = false;
  await expect(page.getByText('Connected')).toBeVisible({ timeout: 30_000 });
  await expect(chat.getByText('Ainda está aí?')).toBeVisible();
  await expect(row).toContainText('Ainda está aí?');
  await expect(page.getByTestId('waiting-count')).toHaveText(`${waitingBefore + 1} waiting`);
  // Merged by uuid into what was shown: nothing repeated, the earlier messages loaded still there.
  await expect(chat.getByText('Ainda está aí?')).toHaveCount(1);
  await expect(chat.getByText('Mensagem 51', { exact: true })).toHaveCount(1);
  await expect(chat.getByText('Mensagem 01', { exact: true })).toHaveCount(1);
  await expect(chat.getByRole('button', { name: 'Load earlier messages' })).toHaveCount(0);

  // The page is live again: the next message arrives by the event.
  await contactWrites(request, channel, phone, 'Obrigado!');
  await expect(chat.getByText('Obrigado!')).toHaveCount(1);
  await expect(row).toContainText('Obrigado!');

  // The newcomer leaves the queue as it was: taken here, closed with the rest by afterEach.
  await takeConversation(page, (c) => c.contact.phone_number === newcomer);
});

test('what happens between the first load and the first connection is not missed', async ({ browser, page, request }) => {
  // A witness whose socket is connected sees the queue grow by the event.
  const witness = await signedInPage(browser, demo('agent2'));
  const witnessCount = witness.getByTestId('waiting-count');
  await expect(witness.getByText('Connected')).toBeVisible();
  await signIn(page, demo('agent'));
  await expect(page.getByText('Connected')).toBeVisible();
  const channel = await demoApiChannel(page.request);

  // The agent's next page load: its first socket connection waits until `release`, after the list
  // and the queue count were loaded and a contact started waiting, an event that page cannot get.
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.routeWebSocket(/\/socket\//, async (ws) => {
    await released;
    ws.connectToServer();
  });
  await page.reload();
  const count = page.getByTestId('waiting-count');
  await expect(count).toHaveText(/^\d+ waiting$/);
  await expect(page.getByText('Connected')).toHaveCount(0);
  const before = Number((await count.textContent())?.match(/\d+/)?.[0]);
  await expect(witnessCount).toHaveText(`${before} waiting`);

  const newcomer = `+55319${String(Date.now()).slice(-8)}`;
  await contactWrites(request, channel, newcomer, 'Olá, cheguei antes da conexão.', `Early ${newcomer.slice(-4)}`);
  // The event went out (the witness has it) while this page was not listening.
  await expect(witnessCount).toHaveText(`${before + 1} waiting`);
  await expect(count).toHaveText(`${before} waiting`);

  release();
  await expect(page.getByText('Connected')).toBeVisible();
  await expect(count).toHaveText(`${before + 1} waiting`);

  await witness.context().close();
  // The newcomer leaves the queue as it was: taken here, closed with the rest by afterEach.
  await takeConversation(page, (c) => c.contact.phone_number === newcomer);
});
